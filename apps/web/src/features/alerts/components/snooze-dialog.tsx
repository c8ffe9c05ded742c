import { isSnoozable, SNOOZE_REASON_MAX, type AlertView } from '@wearable/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button, focusRing } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useSnoozeAlertType } from '../api/snoozes';

/** Durations offered (minutes); the API allows at most 720 (12 hours). */
export const SNOOZE_CHOICES = [30, 60, 120, 240, 480, 720] as const;
const fieldClass = `w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 ${focusRing}`;

/** Whether the row offers "snooze this type": only CAUTION and DEVICE_STATUS types, never EMERGENCY or CRITICAL. */
/** A snooze is of a wearer's type: an alert of a device no wearer holds (issue 34) offers none. */
export const offersSnooze = (alert: AlertView): boolean =>
  alert.wearer !== null && isSnoozable(alert.type);

/**
 * Snooze the alert's type for its wearer: a duration up to 12 hours and a reason (required).
 * A refusal (already snoozed, not snoozable) shows the server's message in the dialog.
 */
export function SnoozeDialog({ alert, onClose }: { alert: AlertView | null; onClose: () => void }) {
  const { t } = useTranslation('alerts');
  const [minutes, setMinutes] = useState<number>(60);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const snooze = useSnoozeAlertType();
  const durationId = useId();
  const reasonId = useId();
  const errorId = useId();

  const close = () => {
    setMinutes(60);
    setReason('');
    setError(null);
    onClose();
  };
  const submit = () => {
    if (alert === null || alert.wearer === null) return;
    const wearer = alert.wearer;
    if (reason.trim() === '') {
      setError(t('snooze.reasonRequired'));
      return;
    }
    setError(null);
    snooze.mutate(
      { uid: wearer.uid, alertType: alert.type, minutes, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(t('snooze.done', { type: t(`types.${alert.type}`), name: wearer.name }), {
            id: 'alert-snooze',
          });
          close();
        },
        onError: (err) =>
          setError(err instanceof Error && err.message !== '' ? err.message : t('snooze.failed')),
      },
    );
  };

  return (
    <Dialog
      open={alert !== null}
      onOpenChange={(open) => !open && close()}
      title={
        alert?.wearer
          ? t('snooze.title', { type: t(`types.${alert.type}`), name: alert.wearer.name })
          : ''
      }
      description={t('snooze.description')}
      data-testid="snooze-dialog"
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={durationId} className="text-sm font-medium text-slate-800">
            {t('snooze.duration')}
          </label>
          <select
            id={durationId}
            data-testid="snooze-minutes"
            className={fieldClass}
            value={minutes}
            onChange={(e) => setMinutes(Number(e.target.value))}
          >
            {SNOOZE_CHOICES.map((m) => (
              <option key={m} value={m}>
                {m < 60 ? t('snooze.minutes', { count: m }) : t('snooze.hours', { count: m / 60 })}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={reasonId} className="text-sm font-medium text-slate-800">
            {t('snooze.reason')}
          </label>
          <textarea
            id={reasonId}
            data-testid="snooze-reason"
            className={fieldClass}
            rows={3}
            aria-required="true"
            aria-invalid={error !== null && reason.trim() === ''}
            aria-describedby={error !== null ? errorId : undefined}
            maxLength={SNOOZE_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        {error !== null && (
          <p id={errorId} role="alert" className="text-sm text-red-700" data-testid="snooze-error">
            {error}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close}>
            {t('snooze.cancel')}
          </Button>
          <Button
            variant="primary"
            type="submit"
            disabled={snooze.isPending}
            data-testid="snooze-submit"
          >
            {t('snooze.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
