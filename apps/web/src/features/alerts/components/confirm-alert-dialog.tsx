import {
  type AlertView,
  CONFIRM_NOTE_MAX,
  CONFIRM_REASONS,
  type ConfirmReason,
  HEAT_PROCEDURE_STEPS,
  type HeatProcedureStep,
} from '@wearable/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { DateTime } from '../../../components/ui/date-time';
import { alertSubject, alertTypeLabel, placeLabel } from './alert-text';
import { HeatProcedurePanel } from './heat-procedure-panel';

/** What staff add to a confirmation besides who and when. */
export interface ConfirmChoice {
  reason?: ConfirmReason;
  note?: string;
  /** Heat alerts: the site's procedure steps taken. */
  procedureSteps?: HeatProcedureStep[];
}

const isReason = (v: string): v is ConfirmReason =>
  (CONFIRM_REASONS as readonly string[]).includes(v);
const fieldClass = `w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 ${focusRing}`;

interface ConfirmAlertDialogProps {
  /** How many alerts this confirms (1 for one row). */
  count: number;
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (choice: ConfirmChoice) => void;
  /** One heat alert of a site: the dialog shows the site's procedure, hospital and contacts. */
  heatGroupId?: string | null;
  /** The one alert confirmed, when known: the dialog names the person (or the device), the type, time and place. */
  alert?: AlertView | null;
}

/** Confirm one or several alerts with an optional reason and note (same for all of them). */
export function ConfirmAlertDialog({
  count,
  open,
  pending,
  onCancel,
  onSubmit,
  heatGroupId = null,
  alert = null,
}: ConfirmAlertDialogProps) {
  const { t } = useTranslation('alerts');
  const [reason, setReason] = useState<ConfirmReason | ''>('');
  const [note, setNote] = useState('');
  const [steps, setSteps] = useState<ReadonlySet<HeatProcedureStep>>(new Set());
  const toggleStep = (step: HeatProcedureStep) =>
    setSteps((now) => {
      const next = new Set(now);
      if (!next.delete(step)) next.add(step);
      return next;
    });
  const tr = (key: string, opts?: Record<string, unknown>) => t(key, opts);
  // Named only when it is the one being confirmed (a batch's dialog counts them instead).
  const one = alert !== null && count === 1 ? alert : null;
  const reasonId = useId();
  const noteId = useId();
  const hintId = useId();

  const submit = () => {
    const choice: ConfirmChoice = {};
    if (reason !== '') choice.reason = reason;
    if (note.trim() !== '') choice.note = note.trim();
    if (steps.size > 0) choice.procedureSteps = HEAT_PROCEDURE_STEPS.filter((s) => steps.has(s));
    onSubmit(choice);
  };
  const close = (next: boolean) => {
    if (next) return;
    setReason('');
    setNote('');
    setSteps(new Set());
    onCancel();
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={
        one === null
          ? t('confirmDialog.title', { count })
          : t('confirmDialog.titleOf', { name: alertSubject(tr, one) })
      }
      description={t('confirmDialog.description')}
      data-testid="confirm-dialog"
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {one !== null && (
          <dl
            data-testid="confirm-alert-subject"
            aria-label={t('confirmDialog.subject')}
            className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
          >
            <dt className="text-slate-600">{t('confirmDialog.who')}</dt>
            <dd className="font-semibold text-slate-900">{alertSubject(tr, one)}</dd>
            <dt className="text-slate-600">{t('confirmDialog.type')}</dt>
            <dd className="text-slate-900">{alertTypeLabel(tr, one)}</dd>
            <dt className="text-slate-600">{t('confirmDialog.time')}</dt>
            <dd className="text-slate-900">
              <DateTime at={one.openedAt} />
            </dd>
            <dt className="text-slate-600">{t('confirmDialog.place')}</dt>
            <dd className="text-slate-900">
              {(one.place ? placeLabel(tr, one.place) : null) ?? t('confirmDialog.noPlace')}
            </dd>
          </dl>
        )}
        {heatGroupId !== null && (
          <HeatProcedurePanel groupId={heatGroupId} steps={steps} onToggle={toggleStep} />
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor={reasonId} className="text-sm font-medium text-slate-800">
            {t('confirmDialog.reason')}
          </label>
          <select
            id={reasonId}
            data-testid="confirm-reason"
            className={fieldClass}
            value={reason}
            onChange={(e) => setReason(isReason(e.target.value) ? e.target.value : '')}
          >
            <option value="">{t('confirmDialog.noReason')}</option>
            {CONFIRM_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`reasons.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={noteId} className="text-sm font-medium text-slate-800">
            {t('confirmDialog.note')}
          </label>
          <textarea
            id={noteId}
            data-testid="confirm-note"
            aria-describedby={hintId}
            className={fieldClass}
            rows={3}
            maxLength={CONFIRM_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <p id={hintId} className="text-xs text-slate-500">
            {t('confirmDialog.noteHint', { used: note.length, max: CONFIRM_NOTE_MAX })}
          </p>
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => close(false)}>
            {t('confirmDialog.cancel')}
          </Button>
          <Button variant="primary" type="submit" disabled={pending} data-testid="confirm-submit">
            {t('confirmDialog.submit', { count })}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
