import {
  HEART_RATE_LOWER_BOUND,
  HEART_RATE_UPPER_BOUND,
  type WearerAlertSettings,
} from '@wearable/domain';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { AlertTypeChoice } from '../../../components/ui/alert-type-choice';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { useSaveAlertSettings } from '../api/alert-settings-api';
import { ALL_ALERT_TYPES, formOf, type SettingsForm, validateForm } from '../settings-form';
import { type FieldErrors, FieldMessage, inputClass } from '../../../components/ui/field-message';
import { ScheduleEditor } from '../../../components/ui/schedule-editor';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';

interface AlertSettingsFormProps {
  wearer: WearerAlertSettings;
  /** Names the alert types in the reader's language (the alerts namespace belongs to the alerts feature). */
  typeLabel: (type: (typeof ALL_ALERT_TYPES)[number]) => string;
}

/** Heart-rate bounds, alert types and the weekday schedule of one wearer, checked with the domain schema before sending. */
export function AlertSettingsForm({ wearer, typeLabel }: AlertSettingsFormProps) {
  const { t } = useTranslation('records');
  const [form, setForm] = useState<SettingsForm>(() => formOf(wearer.settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  // A newer stored version (this save, or another staff member's) resets the fields in place: the form is not
  // re-mounted, so the focused save button keeps the focus after a save.
  const [version, setVersion] = useState(wearer.updatedAt);
  if (version !== wearer.updatedAt) {
    setVersion(wearer.updatedAt);
    setForm(formOf(wearer.settings));
    setErrors({});
  }
  // The server decides; if it refuses this user, the form turns read-only and says why.
  const [refused, setRefused] = useState(false);
  const save = useSaveAlertSettings(wearer.clientId, wearer.uid);
  const readOnly = refused;
  const focusAfterRender = useFocusAfterRender();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const result = validateForm(form);
    if (result.errors) {
      setErrors(result.errors);
      toast.error(t('settings.invalid'));
      // The first field to fix gets focus, once React has marked it invalid.
      focusAfterRender(firstInvalidIn(event.currentTarget));
      return;
    }
    setErrors({});
    save.mutate(result.patch, {
      onSuccess: () => {
        toast.success(t('settings.saved'));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 403) setRefused(true);
        toast.error(t('settings.saveFailed'));
      },
    });
  };

  const bound = (field: 'heartRateLower' | 'heartRateUpper') => {
    const error = errors[field];
    return (
      <div className="flex flex-col">
        <label htmlFor={`hr-${field}`} className="mb-1 text-sm font-medium text-slate-800">
          {t(`settings.${field}`)}
        </label>
        <input
          id={`hr-${field}`}
          data-testid={`input-${field}`}
          type="number"
          inputMode="numeric"
          min={HEART_RATE_LOWER_BOUND}
          max={HEART_RATE_UPPER_BOUND}
          step={1}
          value={form[field]}
          placeholder={field === 'heartRateUpper' ? String(wearer.maxHeartRate) : undefined}
          readOnly={readOnly}
          aria-invalid={error !== undefined}
          aria-describedby={[`hr-${field}-help`, error ? `hr-${field}-error` : '']
            .filter(Boolean)
            .join(' ')}
          onChange={(e) => setForm({ ...form, [field]: e.target.value })}
          className={inputClass(error !== undefined, 'w-36')}
        />
        <p id={`hr-${field}-help`} className="mt-1 text-xs text-slate-600">
          {/* The same bounds as the error message and the server's schema: the domain's constants. */}
          {t(field === 'heartRateLower' ? 'settings.lowerHelp' : 'settings.upperHelp', {
            min: HEART_RATE_LOWER_BOUND,
            max: HEART_RATE_UPPER_BOUND,
            maxHeartRate: wearer.maxHeartRate,
          })}
        </p>
        <FieldMessage id={`hr-${field}-error`} error={error} />
      </div>
    );
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      data-testid="alert-settings-form"
      aria-describedby={refused ? 'settings-readonly' : undefined}
      className="@container"
    >
      {/* Given the room (a staff page at 1,280 px), the schedule stands beside the bounds and the types. */}
      <div className="grid items-start gap-6 @4xl:grid-cols-2">
        {refused && (
          <p
            id="settings-readonly"
            role="status"
            data-testid="settings-readonly"
            className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 @4xl:col-span-2"
          >
            {t('settings.readOnly')}
          </p>
        )}
        <div className="grid min-w-0 gap-6">
          <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
            <legend className="px-1 text-base font-semibold text-slate-900">
              {t('settings.heartRate')}
            </legend>
            <p data-testid="max-heart-rate" className="mb-3 text-sm text-slate-600">
              {wearer.age === null
                ? t('settings.maxUnknownAge', { max: wearer.maxHeartRate })
                : t('settings.maxFormula', { age: wearer.age, max: wearer.maxHeartRate })}
            </p>
            <div className="flex flex-wrap gap-6">
              {bound('heartRateLower')}
              {bound('heartRateUpper')}
            </div>
          </fieldset>
          <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
            <legend className="px-1 text-base font-semibold text-slate-900">
              {t('settings.types')}
            </legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {ALL_ALERT_TYPES.map((type) => (
                <AlertTypeChoice
                  key={type}
                  type={type}
                  label={typeLabel(type)}
                  checked={form.enabled[type]}
                  disabled={readOnly}
                  onChange={(on) => setForm({ ...form, enabled: { ...form.enabled, [type]: on } })}
                  testId={`type-${type}`}
                />
              ))}
            </div>
          </fieldset>
        </div>
        <ScheduleEditor
          schedule={form.schedule}
          errors={errors}
          readOnly={readOnly}
          onChange={(schedule) => setForm({ ...form, schedule })}
        />
        {!readOnly && (
          <div className="@4xl:col-span-2">
            {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page's start. */}
            <Button
              type="submit"
              variant="primary"
              data-testid="save-settings"
              aria-disabled={save.isPending}
            >
              {save.isPending ? t('settings.saving') : t('settings.save')}
            </Button>
          </div>
        )}
      </div>
    </form>
  );
}
