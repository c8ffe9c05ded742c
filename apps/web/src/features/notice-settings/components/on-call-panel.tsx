import {
  formatDate,
  formatDateTime,
  instantOf,
  type OnCallResponse,
  type OnCallSlotView,
} from '@wearable/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { FormFailure } from '../../../components/ui/form-parts';
import { QueryState } from '../../../components/ui/query-state';
import { dateLanguage } from '../../../lib/date-format';
import { useCan } from '../../../lib/use-can';
import {
  useAddOnCallOverride,
  useOnCall,
  usePutOnCallRota,
  useRemoveOnCallOverride,
} from '../api/on-call';
import { OnCallRotaForm } from './on-call-rota-form';
import { fieldClass } from './recipient-editor';

/** A `datetime-local` value (YYYY-MM-DDTHH:MM) read in the organisation's zone, as an ISO instant. */
function instantIn(local: string, timeZone: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const days = Date.parse(`${m[1]}T00:00:00Z`) / 86_400_000;
  if (!Number.isFinite(days)) return null;
  return instantOf(days, Number(m[2]) * 60 + Number(m[3]), timeZone).toISOString();
}

/**
 * The group's on-call rota (issue 38, docs/on-call.md): who is on call now and next, the rota, and
 * the overrides to come. Notice recipients of the kind 「当番の人」 reach whoever is on call.
 */
export function OnCallPanel({
  groupId,
  organizationId,
}: {
  groupId: string;
  organizationId: string;
}) {
  const { t } = useTranslation(['staff-settings', 'common']);
  const view = useOnCall(groupId);
  return (
    <section aria-labelledby="on-call-title" className="grid gap-3" data-testid="on-call">
      <h2 id="on-call-title" className="text-lg font-semibold text-slate-900">
        {t('onCall.title')}
      </h2>
      <QueryState
        isPending={view.isPending}
        isError={view.isError}
        isEmpty={false}
        labels={{
          loading: t('common:common.loading'),
          error: t('common:common.loadFailed'),
          empty: '',
          retry: t('common:common.retry'),
        }}
        onRetry={() => void view.refetch()}
      >
        {view.data && (
          <OnCallBody view={view.data} groupId={groupId} organizationId={organizationId} />
        )}
      </QueryState>
    </section>
  );
}

function OnCallBody({
  view,
  groupId,
  organizationId,
}: {
  view: OnCallResponse;
  groupId: string;
  organizationId: string;
}) {
  const { t, i18n } = useTranslation('staff-settings');
  const lang = dateLanguage(i18n.language);
  const when = (at: string) => formatDateTime(at, lang, view.timeZone);
  const mayEdit = useCan('noticeSettings:update', { organizationId, groupIds: [groupId] });
  const [editing, setEditing] = useState(false);
  const putRota = usePutOnCallRota(groupId);
  const remove = useRemoveOnCallOverride(groupId);
  const names = (s: OnCallSlotView) =>
    s.people.length ? s.people.map((p) => p.name).join(t('notice.separator')) : t('onCall.nobody');

  return (
    <div className="grid gap-4">
      <p className="max-w-3xl text-sm text-slate-700">{t('onCall.intro')}</p>
      <dl className="grid gap-3 sm:grid-cols-2" data-testid="on-call-now-next">
        <div className="rounded-lg border border-teal-300 bg-teal-50 p-4">
          <dt className="text-sm font-medium text-teal-900">{t('onCall.now')}</dt>
          <dd
            className="mt-1 text-base font-semibold break-words text-slate-900"
            data-testid="on-call-now"
          >
            {names(view.now)}
          </dd>
          <dd className="mt-1 text-sm text-slate-700">
            {t('onCall.until', { at: when(view.now.until) })}
            {view.now.source !== 'none' && ` · ${t(`onCall.source.${view.now.source}`)}`}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-sm font-medium text-slate-700">{t('onCall.next')}</dt>
          <dd
            className="mt-1 text-base font-semibold break-words text-slate-900"
            data-testid="on-call-next"
          >
            {names(view.next)}
          </dd>
          <dd className="mt-1 text-sm text-slate-700">
            {t('onCall.from', { at: when(view.next.from) })}
            {view.next.source !== 'none' && ` · ${t(`onCall.source.${view.next.source}`)}`}
          </dd>
        </div>
      </dl>
      {editing ? (
        <OnCallRotaForm
          stored={view.rota}
          candidates={view.candidates}
          saving={putRota.isPending}
          error={putRota.error}
          onCancel={() => setEditing(false)}
          onSave={(rota) =>
            !putRota.isPending &&
            putRota.mutate(rota, {
              onSuccess: () => {
                setEditing(false);
                toast.success(rota ? t('onCall.rotaSaved') : t('onCall.rotaDeleted'));
              },
            })
          }
        />
      ) : (
        <div className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-sm text-slate-800" data-testid="on-call-rota-summary">
            {view.rota
              ? t(`onCall.summary.${view.rota.kind}`, {
                  count: view.rota.members.length,
                  time: view.rota.handoverTime,
                  date: formatDate(`${view.rota.startsOn}T00:00:00Z`, lang, 'UTC'),
                })
              : t('onCall.noRota')}
            {view.rota?.holidayMembers &&
              ` ${t('onCall.summaryHolidays', { count: view.rota.holidayMembers.length })}`}
          </p>
          {view.rota && !view.publicHolidaysAsWeekdays && view.rota.holidayMembers && (
            <p className="text-xs text-slate-600">{t('onCall.holidayNote')}</p>
          )}
          {mayEdit && (
            <div>
              <Button
                variant="outline"
                onClick={() => setEditing(true)}
                data-testid="on-call-rota-edit"
              >
                {view.rota ? t('onCall.editRota') : t('onCall.makeRota')}
              </Button>
            </div>
          )}
        </div>
      )}
      <section aria-labelledby="on-call-overrides-title" className="grid gap-2">
        <h3 id="on-call-overrides-title" className="text-base font-semibold text-slate-900">
          {t('onCall.overridesTitle')}
        </h3>
        {view.overrides.length === 0 ? (
          <p className="text-sm text-slate-600">{t('onCall.noOverrides')}</p>
        ) : (
          <ul className="grid gap-2" data-testid="on-call-overrides">
            {view.overrides.map((o) => (
              <li
                key={o.id}
                data-testid="on-call-override"
                className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm"
              >
                <span className="min-w-0 flex-1 break-words text-slate-900">
                  <span className="font-medium">{o.userName}</span> {when(o.startsAt)} –{' '}
                  {when(o.endsAt)}
                  {o.note && <span className="text-slate-600"> · {o.note}</span>}
                </span>
                {mayEdit && (
                  <Button
                    variant="ghost"
                    aria-disabled={remove.isPending}
                    onClick={() => !remove.isPending && remove.mutate(o.id)}
                    aria-label={t('onCall.removeOverride', {
                      name: o.userName,
                      at: when(o.startsAt),
                    })}
                  >
                    {t('onCall.removeShort')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {mayEdit && <OverrideForm view={view} groupId={groupId} />}
      </section>
    </div>
  );
}

function OverrideForm({ view, groupId }: { view: OnCallResponse; groupId: string }) {
  const { t } = useTranslation('staff-settings');
  const id = useId();
  const add = useAddOnCallOverride(groupId);
  const [userId, setUserId] = useState('');
  const [from, setFrom] = useState('');
  const [until, setUntil] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const startsAt = instantIn(from, view.timeZone);
    const endsAt = instantIn(until, view.timeZone);
    if (!userId) return setProblem(t('onCall.errors.overridePerson'));
    if (!startsAt || !endsAt) return setProblem(t('onCall.errors.overrideTimes'));
    if (Date.parse(endsAt) <= Date.parse(startsAt))
      return setProblem(t('onCall.errors.overrideOrder'));
    setProblem('');
    add.mutate(
      { userId, startsAt, endsAt, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => {
          setUserId('');
          setFrom('');
          setUntil('');
          setNote('');
          toast.success(t('onCall.overrideAdded'));
        },
      },
    );
  };
  const input = `${fieldClass} border-slate-300`;
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="grid gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4"
      data-testid="on-call-override-form"
    >
      <h4 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        {t('onCall.addOverride')}
      </h4>
      <div>
        <label htmlFor={`${id}-who`} className="block text-sm text-slate-700">
          {t('onCall.overridePerson')}
        </label>
        <select
          id={`${id}-who`}
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          data-testid="on-call-override-person"
          className={input}
        >
          <option value="">{t('onCall.pickPerson')}</option>
          {view.candidates.map((c) => (
            <option key={c.userId} value={c.userId}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap gap-4">
        <div className="w-full sm:w-auto">
          <label htmlFor={`${id}-from`} className="block text-sm text-slate-700">
            {t('onCall.overrideFrom')}
          </label>
          <input
            id={`${id}-from`}
            type="datetime-local"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            data-testid="on-call-override-from"
            className={`${input} sm:w-60`}
          />
        </div>
        <div className="w-full sm:w-auto">
          <label htmlFor={`${id}-until`} className="block text-sm text-slate-700">
            {t('onCall.overrideUntil')}
          </label>
          <input
            id={`${id}-until`}
            type="datetime-local"
            value={until}
            onChange={(e) => setUntil(e.target.value)}
            data-testid="on-call-override-until"
            className={`${input} sm:w-60`}
          />
        </div>
      </div>
      <p className="text-xs text-slate-600">{t('onCall.zoneNote', { zone: view.timeZone })}</p>
      <div>
        <label htmlFor={`${id}-note`} className="block text-sm text-slate-700">
          {t('onCall.overrideNote')}
        </label>
        <input
          id={`${id}-note`}
          value={note}
          maxLength={200}
          onChange={(e) => setNote(e.target.value)}
          data-testid="on-call-override-note"
          className={input}
        />
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      <FormFailure error={add.error} />
      <div>
        <Button
          type="submit"
          variant="primary"
          aria-disabled={add.isPending}
          data-testid="on-call-override-add"
        >
          {t('onCall.addOverrideButton')}
        </Button>
      </div>
    </form>
  );
}
