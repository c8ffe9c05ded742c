import {
  ALERT_TYPES,
  type AlertType,
  CHAT_CHANNELS,
  isChatChannel,
  type Member,
  STAFF_NOTICE_CHANNELS,
} from '@wearable/domain';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { ScheduleEditor } from '../../../components/ui/schedule-editor';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';
import {
  checkDraft,
  type DraftErrors,
  EMERGENCY_TYPES,
  MAX_STEP,
  type RecipientDraft,
} from '../recipients';
import { AlertTypeChoice } from '../../../components/ui/alert-type-choice';

export const fieldClass = `min-h-11 w-full rounded-md border bg-white px-3 text-base text-slate-900 sm:w-80 ${focusRing}`;

interface RecipientEditorProps {
  draft: RecipientDraft;
  staff: Member[];
  typeLabel: (type: AlertType) => string;
  onDone: (draft: RecipientDraft) => void;
  onCancel: () => void;
}

/** One recipient's form: who, by which channel, which alert types, on which weekly hours, at which escalation step. */
export function RecipientEditor({
  draft: initial,
  staff,
  typeLabel,
  onDone,
  onCancel,
}: RecipientEditorProps) {
  const { t } = useTranslation(['staff-settings', 'common']);
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  const id = useId();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const focusAfterRender = useFocusAfterRender();
  const set = (change: Partial<RecipientDraft>) => setDraft({ ...draft, ...change });
  const error = (field: keyof DraftErrors) =>
    errors[field] ? (
      <p
        id={`${id}-${field}-error`}
        className="mt-1 text-sm text-red-700"
        data-testid="recipient-error"
      >
        {t(errors[field])}
      </p>
    ) : null;
  const described = (field: keyof DraftErrors) =>
    errors[field] ? `${id}-${field}-error` : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const found = checkDraft(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusAfterRender(firstInvalidIn(event.currentTarget));
      return;
    }
    const person = staff.find((s) => s.uid === draft.userId);
    onDone({ ...draft, userName: person?.name ?? draft.userName });
  };

  const toggleType = (type: AlertType, on: boolean) =>
    set({
      alertTypes: on
        ? [...new Set([...draft.alertTypes, type])]
        : draft.alertTypes.filter((x) => x !== type),
    });

  return (
    <form
      noValidate
      onSubmit={submit}
      data-testid="recipient-editor"
      aria-labelledby={`${id}-title`}
      className="grid gap-4 rounded-lg border border-teal-300 bg-teal-50/40 p-4"
    >
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {t('notice.editor.title')}
      </h3>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('notice.editor.who')}</legend>
        <div className="mt-1 flex flex-wrap gap-x-6">
          {(['phone', 'staff', 'onCall', 'chat'] as const).map((kind, i) => (
            <label key={kind} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input
                ref={i === 0 ? first : undefined}
                type="radio"
                name={`${id}-kind`}
                value={kind}
                checked={draft.kind === kind}
                // A chat channel is its own recipient; a person or number goes by phone (a number
                // cannot take a push: it falls back to SMS).
                onChange={() =>
                  set({
                    kind,
                    channel:
                      kind === 'chat'
                        ? isChatChannel(draft.channel)
                          ? draft.channel
                          : 'SLACK'
                        : isChatChannel(draft.channel) ||
                            (kind === 'phone' && draft.channel === 'PUSH')
                          ? 'SMS'
                          : draft.channel,
                  })
                }
                data-testid={`recipient-kind-${kind}`}
                className={`size-4 accent-teal-700 ${focusRing}`}
              />
              {t(`notice.editor.kind.${kind}`)}
            </label>
          ))}
        </div>
        {draft.kind === 'chat' ? (
          <p className="mt-2 text-xs text-slate-600" data-testid="recipient-chat-help">
            {t('notice.editor.chatHelp')}
          </p>
        ) : draft.kind === 'onCall' ? (
          <p className="mt-2 text-sm text-slate-700" data-testid="recipient-on-call-help">
            {t('notice.editor.onCallHelp')}
          </p>
        ) : draft.kind === 'phone' ? (
          <div className="mt-2">
            <label htmlFor={`${id}-phone`} className="block text-sm text-slate-700">
              {t('notice.editor.phone')}
            </label>
            <input
              id={`${id}-phone`}
              type="tel"
              inputMode="tel"
              autoComplete="off"
              placeholder="+819012345678"
              value={draft.phoneNumber}
              onChange={(e) => set({ phoneNumber: e.target.value })}
              aria-invalid={errors.phoneNumber !== undefined}
              aria-describedby={[`${id}-phone-help`, described('phoneNumber')]
                .filter(Boolean)
                .join(' ')}
              data-testid="recipient-phone"
              className={`${fieldClass} ${errors.phoneNumber ? 'border-red-600' : 'border-slate-300'}`}
            />
            <p id={`${id}-phone-help`} className="mt-1 text-xs text-slate-600">
              {t('notice.editor.phoneHelp')}
            </p>
            {error('phoneNumber')}
          </div>
        ) : (
          <div className="mt-2">
            <label htmlFor={`${id}-staff`} className="block text-sm text-slate-700">
              {t('notice.editor.staff')}
            </label>
            <select
              id={`${id}-staff`}
              value={draft.userId}
              onChange={(e) => set({ userId: e.target.value })}
              aria-invalid={errors.userId !== undefined}
              aria-describedby={[`${id}-staff-help`, described('userId')].filter(Boolean).join(' ')}
              data-testid="recipient-staff"
              className={`${fieldClass} ${errors.userId ? 'border-red-600' : 'border-slate-300'}`}
            >
              <option value="">{t('notice.editor.pickStaff')}</option>
              {/* A recipient stored before the staff list arrived (or no longer in its first page) stays choosable. */}
              {draft.userId !== '' && !staff.some((s) => s.uid === draft.userId) && (
                <option value={draft.userId}>{draft.userName || draft.userId}</option>
              )}
              {staff.map((s) => (
                <option key={s.uid} value={s.uid}>
                  {s.name}（{t(`common:roles.${s.role}`)}）
                </option>
              ))}
            </select>
            <p id={`${id}-staff-help`} className="mt-1 text-xs text-slate-600">
              {t('notice.editor.staffHelp')}
            </p>
            {error('userId')}
          </div>
        )}
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('notice.editor.channel')}</legend>
        <div className="mt-1 flex flex-wrap gap-x-6">
          {(draft.kind === 'chat'
            ? CHAT_CHANNELS
            : STAFF_NOTICE_CHANNELS.filter((c) => !isChatChannel(c))
          ).map((channel) => (
            <label
              key={channel}
              className="flex min-h-11 items-center gap-2 text-sm text-slate-800"
            >
              <input
                type="radio"
                name={`${id}-channel`}
                value={channel}
                checked={draft.channel === channel}
                // A push goes to a staff member's subscribed browsers: never to a bare number.
                disabled={channel === 'PUSH' && draft.kind === 'phone'}
                onChange={() => set({ channel })}
                data-testid={`recipient-channel-${channel}`}
                className={`size-4 accent-teal-700 ${focusRing}`}
              />
              {t(`notice.channel.${channel}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset aria-describedby={described('alertTypes')}>
        <legend className="text-sm font-medium text-slate-800">{t('notice.editor.types')}</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          <Button
            variant="outline"
            onClick={() => set({ alertTypes: [...EMERGENCY_TYPES] })}
            data-testid="recipient-types-emergency"
          >
            {t('notice.editor.typesEmergency')}
          </Button>
          <Button
            variant="outline"
            onClick={() => set({ alertTypes: [...ALERT_TYPES] })}
            data-testid="recipient-types-all"
          >
            {t('notice.editor.typesAll')}
          </Button>
        </div>
        <div className="mt-2 grid gap-1 sm:grid-cols-2">
          {ALERT_TYPES.map((type) => (
            <AlertTypeChoice
              key={type}
              type={type}
              label={typeLabel(type)}
              checked={draft.alertTypes.includes(type)}
              invalid={errors.alertTypes !== undefined}
              onChange={(on) => toggleType(type, on)}
              testId={`recipient-type-${type}`}
            />
          ))}
        </div>
        {error('alertTypes')}
      </fieldset>
      <ScheduleEditor
        schedule={draft.schedule}
        errors={{}}
        readOnly={false}
        onChange={(schedule) => set({ schedule })}
      />
      {error('schedule')}
      <div>
        <label htmlFor={`${id}-step`} className="block text-sm font-medium text-slate-800">
          {t('notice.editor.step')}
        </label>
        <select
          id={`${id}-step`}
          value={draft.order}
          onChange={(e) => set({ order: Number(e.target.value) })}
          aria-describedby={`${id}-step-help`}
          data-testid="recipient-step"
          className={`${fieldClass} border-slate-300`}
        >
          {Array.from({ length: MAX_STEP }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {t('notice.step', { step: n })}
            </option>
          ))}
        </select>
        <p id={`${id}-step-help`} className="mt-1 text-xs text-slate-600">
          {t('notice.editor.stepHelp')}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" data-testid="recipient-done">
          {t('notice.editor.done')}
        </Button>
        <Button variant="outline" onClick={onCancel} data-testid="recipient-cancel">
          {t('notice.editor.cancel')}
        </Button>
      </div>
    </form>
  );
}
