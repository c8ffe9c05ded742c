import {
  type AlertNoticeSettingsResponse,
  type AlertType,
  isChatChannel,
  type Member,
  type NoticeTestResponse,
  type Weekday,
  WEEKDAYS,
} from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { QueryState } from '../../../components/ui/query-state';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/use-can';
import { useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useNoticeSettings } from '../api/get-notice-settings';
import { useOrganizationStaff } from '../api/list-staff';
import { useSaveNoticeSettings } from '../api/save-notice-settings';
import { useSendNoticeTest } from '../api/send-notice-test';
import {
  checkDraft,
  draftsOf,
  MAX_STEP,
  moveStep,
  newDraft,
  recipientOf,
  type RecipientDraft,
  sameAsStored,
  sortByStep,
} from '../recipients';
import { AlertPolicyPanel } from './alert-policy-panel';
import { NotificationLogPanel } from './notification-log-panel';
import { OnCallPanel } from './on-call-panel';
import { RecipientEditor } from './recipient-editor';

type TypeLabel = (type: AlertType) => string;

const refusalOf = (error: unknown) =>
  error instanceof ApiError ? (error.body?.message ?? error.message) : String(error);

/** /groups/{groupId}/alert-notice-settings: who is called or texted for which alerts, when, and in which escalation order. */
export function NoticeSettingsPanel({
  groupId,
  typeLabel,
}: {
  groupId: string;
  typeLabel: TypeLabel;
}) {
  const { t } = useTranslation(['staff-settings', 'common']);
  const settings = useNoticeSettings(groupId);
  return (
    <QueryState
      isPending={settings.isPending}
      isError={settings.isError}
      isEmpty={false}
      labels={{
        loading: t('common:common.loading'),
        error: t('common:common.loadFailed'),
        empty: '',
        retry: t('common:common.retry'),
      }}
      onRetry={() => void settings.refetch()}
    >
      {settings.data && <NoticeEditor key={groupId} stored={settings.data} typeLabel={typeLabel} />}
    </QueryState>
  );
}

function NoticeEditor({
  stored,
  typeLabel,
}: {
  stored: AlertNoticeSettingsResponse;
  typeLabel: TypeLabel;
}) {
  const { t } = useTranslation(['staff-settings', 'common']);
  const groupId = stored.groupId;
  const mayEdit = useCan('noticeSettings:update', {
    organizationId: stored.clientId,
    groupIds: [groupId],
  });
  const staff = useOrganizationStaff(stored.clientId);
  const [drafts, setDrafts] = useState<RecipientDraft[]>(() => draftsOf(stored));
  const [holidays, setHolidays] = useState(stored.publicHolidaysAsWeekdays);
  const [editing, setEditing] = useState<RecipientDraft | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [tests, setTests] = useState<Record<string, { ok: boolean; text: string }>>({});
  const save = useSaveNoticeSettings(groupId);
  const test = useSendNoticeTest(groupId);
  const dirty = !sameAsStored(drafts, stored) || holidays !== stored.publicHolidaysAsWeekdays;
  const staffList: Member[] = staff.data ?? [];

  const who = (d: RecipientDraft) =>
    d.kind === 'chat'
      ? t(`notice.channel.${d.channel}`)
      : d.kind === 'onCall'
        ? t('notice.onCallWho')
        : d.kind === 'staff'
          ? (staffList.find((s) => s.uid === d.userId)?.name ?? (d.userName || d.userId))
          : d.phoneNumber;
  const focusLater = useFocusAfterRender();

  const done = (draft: RecipientDraft) => {
    const exists = drafts.some((d) => d.key === draft.key);
    setDrafts(
      sortByStep(
        exists ? drafts.map((d) => (d.key === draft.key ? draft : d)) : [...drafts, draft],
      ),
    );
    setEditing(null);
    setAnnouncement(t('notice.announce.edited', { name: who(draft), step: draft.order }));
    focusLater(`recipient-edit-${draft.key}`);
  };
  const remove = (draft: RecipientDraft) => {
    const index = drafts.findIndex((d) => d.key === draft.key);
    const rest = drafts.filter((d) => d.key !== draft.key);
    setDrafts(rest);
    setAnnouncement(t('notice.announce.removed', { name: who(draft) }));
    const next = rest[Math.min(index, rest.length - 1)];
    focusLater(next ? `recipient-edit-${next.key}` : 'recipient-add');
  };
  const move = (draft: RecipientDraft, delta: -1 | 1) => {
    const moved = moveStep(drafts, draft.key, delta);
    setDrafts(moved);
    const step = moved.find((d) => d.key === draft.key)!.order;
    setAnnouncement(t('notice.announce.moved', { name: who(draft), step }));
    // The button pressed keeps the focus (it moves with its card), so pressing again moves again.
    focusLater(`recipient-move-${delta < 0 ? 'up' : 'down'}-${draft.key}`);
  };
  const submit = () => {
    if (save.isPending) return;
    const bad = drafts.find((d) => Object.keys(checkDraft(d)).length > 0);
    if (bad) {
      setEditing(bad);
      return;
    }
    save.mutate(
      { recipients: drafts.map(recipientOf), publicHolidaysAsWeekdays: holidays },
      {
        onSuccess: (saved) => {
          setDrafts(draftsOf(saved));
          setHolidays(saved.publicHolidaysAsWeekdays);
          toast.success(t('notice.saved'));
          // The live region says the final state: it held "…（未保存）。" after the save.
          setAnnouncement(t('notice.saved'));
        },
        onError: () => {
          toast.error(t('notice.saveFailed'));
          setAnnouncement(t('notice.saveFailed'));
        },
      },
    );
  };
  const sendTest = (draft: RecipientDraft) => {
    if (Object.keys(checkDraft(draft)).length > 0) {
      setEditing(draft);
      return;
    }
    if (draft.kind === 'onCall') return; // whoever is on call has no one number to test
    const target =
      draft.kind === 'staff' ? { userId: draft.userId } : { phoneNumber: draft.phoneNumber.trim() };
    if (isChatChannel(draft.channel)) return; // tested on /settings/chat-channels
    test.mutate(
      { channel: draft.channel, ...target },
      {
        onSuccess: (res: NoticeTestResponse) =>
          setTests({
            ...tests,
            [draft.key]: {
              ok: res.status !== 'failed',
              text:
                res.status === 'failed'
                  ? t('notice.test.failed', { provider: res.provider, error: res.error ?? '' })
                  : t('notice.test.sent', {
                      channel: t(`notice.channel.${draft.channel}`),
                      provider: res.provider,
                      status: t(`notice.status.${res.status}`),
                    }),
            },
          }),
        onError: (error) =>
          setTests({
            ...tests,
            [draft.key]: {
              ok: false,
              text: t('notice.test.refused', { message: refusalOf(error) }),
            },
          }),
      },
    );
  };

  return (
    <div className="grid gap-6">
      <p className="text-base font-medium text-slate-800" data-testid="notice-group-name">
        {t('bulk.groupLine', { name: stored.groupName })}
      </p>
      <p className="max-w-3xl text-sm text-slate-700">{t('notice.intro')}</p>
      {!mayEdit && (
        <p
          role="status"
          data-testid="notice-read-only"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          {t('notice.readOnly')}
        </p>
      )}
      <p className="sr-only" aria-live="polite" data-testid="notice-announcement">
        {announcement}
      </p>
      {/* Wide screens: the recipients and their save beside the organisation's policy, the log below both. */}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="grid min-w-0 gap-6">
          <section aria-labelledby="notice-recipients-title" className="grid gap-3">
            <h2 id="notice-recipients-title" className="text-lg font-semibold text-slate-900">
              {t('notice.recipientsTitle', { count: drafts.length })}
            </h2>
            {drafts.length === 0 && (
              <p
                data-testid="notice-empty"
                className="rounded-lg border border-dashed border-amber-400 bg-amber-50 p-4 text-sm text-amber-900"
              >
                {t('notice.empty')}
              </p>
            )}
            <ol className="grid gap-3" data-testid="notice-recipients">
              {drafts.map((d, index) =>
                editing?.key === d.key ? (
                  <li key={d.key}>
                    <RecipientEditor
                      draft={d}
                      staff={staffList}
                      typeLabel={typeLabel}
                      onDone={done}
                      onCancel={() => {
                        setEditing(null);
                        focusLater(`recipient-edit-${d.key}`);
                      }}
                    />
                  </li>
                ) : (
                  <li
                    key={d.key}
                    data-testid="notice-recipient"
                    className="rounded-lg border border-slate-200 bg-white p-4"
                  >
                    <RecipientSummary draft={d} who={who(d)} typeLabel={typeLabel} />
                    {mayEdit && (
                      <div className="mt-3 flex flex-wrap gap-2">
                        <Button
                          id={`recipient-move-up-${d.key}`}
                          variant="outline"
                          aria-disabled={d.order <= 1}
                          onClick={() => d.order > 1 && move(d, -1)}
                          aria-label={t('notice.moveUp', { name: who(d), position: index + 1 })}
                          data-testid="recipient-move-up"
                        >
                          ↑ {t('notice.moveUpShort')}
                        </Button>
                        <Button
                          id={`recipient-move-down-${d.key}`}
                          variant="outline"
                          aria-disabled={d.order >= MAX_STEP}
                          onClick={() => d.order < MAX_STEP && move(d, 1)}
                          aria-label={t('notice.moveDown', { name: who(d), position: index + 1 })}
                          data-testid="recipient-move-down"
                        >
                          ↓ {t('notice.moveDownShort')}
                        </Button>
                        <Button
                          id={`recipient-edit-${d.key}`}
                          variant="outline"
                          onClick={() => setEditing(d)}
                          aria-label={t('notice.edit', { name: who(d) })}
                          data-testid="recipient-edit"
                        >
                          {t('notice.editShort')}
                        </Button>
                        <Button
                          variant="ghost"
                          onClick={() => remove(d)}
                          aria-label={t('notice.remove', { name: who(d) })}
                          data-testid="recipient-remove"
                        >
                          {t('notice.removeShort')}
                        </Button>
                        {/* Whoever is on call has no one number; a chat channel's test is on /settings/chat-channels. */}
                        {d.kind !== 'onCall' && d.kind !== 'chat' && (
                          <Button
                            variant="secondary"
                            aria-disabled={test.isPending}
                            onClick={() => !test.isPending && sendTest(d)}
                            aria-label={t('notice.test.button', {
                              name: who(d),
                              channel: t(`notice.channel.${d.channel}`),
                            })}
                            data-testid="recipient-test"
                          >
                            {t('notice.test.short')}
                          </Button>
                        )}
                      </div>
                    )}
                    {tests[d.key] && (
                      <p
                        role="status"
                        data-testid="recipient-test-result"
                        className={`mt-2 text-sm break-words ${tests[d.key]!.ok ? 'text-teal-800' : 'text-red-700'}`}
                      >
                        {tests[d.key]!.text}
                      </p>
                    )}
                  </li>
                ),
              )}
              {editing && !drafts.some((d) => d.key === editing.key) && (
                <li>
                  <RecipientEditor
                    draft={editing}
                    staff={staffList}
                    typeLabel={typeLabel}
                    onDone={done}
                    onCancel={() => {
                      setEditing(null);
                      focusLater('recipient-add');
                    }}
                  />
                </li>
              )}
            </ol>
            {mayEdit && editing === null && drafts.length < 100 && (
              <div>
                <Button
                  id="recipient-add"
                  variant="outline"
                  onClick={() =>
                    setEditing(newDraft((drafts.at(-1)?.order ?? 0) + 1, stored.organizationKind))
                  }
                  data-testid="recipient-add"
                >
                  + {t('notice.add')}
                </Button>
              </div>
            )}
            <div className="grid gap-1">
              <label className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={holidays}
                  disabled={!mayEdit}
                  aria-describedby="notice-holidays-hint"
                  onChange={(e) => setHolidays(e.target.checked)}
                  data-testid="notice-holidays"
                />
                <span>{t('notice.holidaysAsWeekdays')}</span>
              </label>
              <p id="notice-holidays-hint" className="text-xs text-slate-600">
                {t('notice.holidaysHint')}
              </p>
            </div>
          </section>
          {mayEdit && (
            <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
              <Button
                variant="primary"
                onClick={submit}
                aria-disabled={save.isPending || editing !== null}
                data-testid="notice-save"
              >
                {save.isPending ? t('notice.saving') : t('notice.save')}
              </Button>
              {dirty && (
                <>
                  <Button
                    variant="outline"
                    onClick={() => {
                      setDrafts(draftsOf(stored));
                      setHolidays(stored.publicHolidaysAsWeekdays);
                      setEditing(null);
                    }}
                    data-testid="notice-discard"
                  >
                    {t('notice.discard')}
                  </Button>
                  <span className="text-sm text-amber-800" data-testid="notice-dirty">
                    {t('notice.unsaved')}
                  </span>
                </>
              )}
              {editing !== null && (
                <span className="text-sm text-slate-600">{t('notice.finishEditing')}</span>
              )}
              {save.error && (
                <p
                  role="alert"
                  className="w-full text-sm break-words text-red-700"
                  data-testid="notice-refusal"
                >
                  {t('bulk.refused', { message: refusalOf(save.error) })}
                </p>
              )}
            </div>
          )}
        </div>
        <div className="min-w-0">
          <AlertPolicyPanel organizationId={stored.clientId} />
        </div>
      </div>
      <OnCallPanel groupId={groupId} organizationId={stored.clientId} />
      <NotificationLogPanel typeLabel={typeLabel} />
    </div>
  );
}

/** "毎日 00:00–23:59", or the days sharing hours together: "月・火・水・木・金 09:00–18:00". */
function hoursText(
  schedule: RecipientDraft['schedule'],
  dayName: (day: Weekday) => string,
  everyDay: string,
  never: string,
): string {
  const groups = new Map<string, Weekday[]>();
  for (const day of WEEKDAYS) {
    const s = schedule[day];
    if (!s.enabled) continue;
    const key = `${s.startTime}–${s.endTime}`;
    groups.set(key, [...(groups.get(key) ?? []), day]);
  }
  if (groups.size === 0) return never;
  return [...groups]
    .map(
      ([hours, days]) =>
        `${days.length === WEEKDAYS.length ? everyDay : days.map(dayName).join('・')} ${hours}`,
    )
    .join(', ');
}

function RecipientSummary({
  draft: d,
  who,
  typeLabel,
}: {
  draft: RecipientDraft;
  who: string;
  typeLabel: TypeLabel;
}) {
  const { t } = useTranslation('staff-settings');
  const hours = hoursText(
    d.schedule,
    (day) => t(`notice.weekdaysShort.${day}`),
    t('notice.everyDay'),
    t('notice.never'),
  );
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2">
        <span
          className="rounded bg-teal-700 px-2 py-0.5 text-xs font-semibold text-white"
          data-testid="recipient-step-badge"
        >
          {t('notice.step', { step: d.order })}
        </span>
        <span className="font-medium break-all text-slate-900" data-testid="recipient-who">
          {who}
        </span>
        <span className="rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-700">
          {t(`notice.channel.${d.channel}`)}
        </span>
      </p>
      <p className="mt-1 text-sm break-words text-slate-700">
        <span className="font-medium">{t('notice.typesLabel')}</span>{' '}
        {d.alertTypes.map(typeLabel).join(t('notice.separator'))}
      </p>
      <p className="mt-1 text-sm break-words text-slate-700">
        <span className="font-medium">{t('notice.hoursLabel')}</span> {hours}
      </p>
    </div>
  );
}
