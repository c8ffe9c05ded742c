import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { PersonName } from '../../../components/ui/person-name';
import { AlertBadge } from './alert-badge';
import { AlertLinkActions } from './alert-link-actions';
import { alertSubject, alertTypeLabel, causeText, placeLabel } from './alert-text';
import { needsConfirm, selectionState, useAlertCells, type AlertTableProps } from './alert-cells';

/**
 * Phones: one card per alert, whose wearer, type, level and status read without scrolling sideways, and whose
 * confirm button (44 px high) sits under the thumb. Same test ids as the table's rows.
 */
export function AlertCards({
  alerts,
  selection,
  onConfirm,
  onTimeline,
  onSnooze,
  statusNote,
  confirmingIds,
  showWearer = true,
}: AlertTableProps) {
  const { t } = useTranslation('alerts');
  const cells = useAlertCells();
  const { confirmable, allSelected } = selectionState(alerts, selection);

  return (
    <div data-testid="alert-table">
      {selection !== null && confirmable.length > 0 && (
        <label className="mb-2 flex min-h-11 items-center gap-3 px-1 text-sm text-slate-800">
          <input
            type="checkbox"
            data-testid="alert-select-all"
            checked={allSelected}
            onChange={() => selection.toggleAll(confirmable)}
            className={`size-5 accent-teal-700 ${focusRing}`}
          />
          {t('table.selectAll')}
        </label>
      )}
      <ul aria-label={t('table.caption')} className="flex flex-col gap-3">
        {alerts.map((alert) => (
          <li
            key={alert.id}
            data-testid="alert-row"
            data-alert-id={alert.id}
            data-type={alert.type}
            className="rounded-lg border border-slate-200 bg-white p-3"
          >
            <div className="flex items-start gap-3">
              {selection !== null && needsConfirm(alert) && (
                <input
                  type="checkbox"
                  aria-label={t('table.select', {
                    type: t(`types.${alert.type}`),
                    name: alertSubject(t, alert),
                  })}
                  checked={selection.selected.has(alert.id)}
                  onChange={() => selection.toggle(alert.id)}
                  className={`mt-1 size-5 shrink-0 accent-teal-700 ${focusRing}`}
                />
              )}
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  {showWearer && (
                    <PersonName
                      name={alertSubject(t, alert)}
                      className="font-semibold text-slate-900"
                    />
                  )}
                  <span className="font-medium text-slate-900">{alertTypeLabel(t, alert)}</span>
                  <AlertBadge level={alert.level} />
                </p>
                <p className="mt-1 text-sm text-slate-700">
                  {cells.time(alert)}
                  {showWearer && alert.groupName !== null && <span> · {alert.groupName}</span>}
                </p>
                <AlertLinkActions
                  alert={alert}
                  onTimeline={onTimeline}
                  onSnooze={onSnooze}
                  layout="card"
                />
                <p className="mt-1 text-sm text-slate-700" data-testid="alert-cause">
                  {causeText(t, alert.cause)}
                </p>
                {alert.place !== null && (
                  <p className="mt-1 text-sm font-medium text-slate-900" data-testid="alert-place">
                    {placeLabel(t, alert.place)}
                  </p>
                )}
                <p
                  className="mt-1 text-sm font-medium text-slate-800"
                  data-testid="alert-status"
                  tabIndex={-1}
                >
                  {cells.status(alert)}
                </p>
                {statusNote?.(alert)}
              </div>
            </div>
            {onConfirm !== null && needsConfirm(alert) && (
              <Button
                variant="outline"
                className="mt-3 min-h-11 w-full"
                data-testid="alert-confirm"
                disabled={confirmingIds.has(alert.id)}
                onClick={() => onConfirm(alert)}
                aria-label={t('actions.confirmOne', {
                  type: t(`types.${alert.type}`),
                  name: alertSubject(t, alert),
                })}
              >
                {t('actions.confirm')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
