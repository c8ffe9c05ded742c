import type { AlertView } from '@wearable/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/ui/date-time';

export interface AlertTableProps {
  alerts: readonly AlertView[];
  /** Null when the reader may not confirm (demo, personal users): no checkboxes, no buttons. */
  selection: {
    selected: ReadonlySet<string>;
    toggle: (id: string) => void;
    toggleAll: (ids: string[]) => void;
  } | null;
  onConfirm: ((alert: AlertView) => void) | null;
  /** Alerts being confirmed right now (their buttons are disabled). */
  confirmingIds: ReadonlySet<string>;
  showWearer?: boolean;
  /** Opens the alert's timeline (staff who may read notifications); absent: no button. */
  onTimeline?: ((alert: AlertView) => void) | undefined;
  /** Staff who may snooze: offered on CAUTION and DEVICE_STATUS alerts only. */
  onSnooze?: ((alert: AlertView) => void) | undefined;
  /** A line under the alert's status (the handover: "snoozed until 14:00"); null: none. */
  statusNote?: ((alert: AlertView) => ReactNode) | undefined;
}

/**
 * The row's status, where focus goes after a confirm: the button goes away and the status (now "confirmed") keeps the
 * keyboard in the list instead of letting it fall to the page's start.
 */
export function alertStatusOf(alertId: string): HTMLElement | null | undefined {
  const row = Array.from(document.querySelectorAll('[data-alert-id]')).find(
    (el) => el.getAttribute('data-alert-id') === alertId,
  );
  return row?.querySelector<HTMLElement>('[data-testid="alert-status"]');
}

/** Open or already ended, an alert nobody confirmed yet can be confirmed. */
export const needsConfirm = (alert: AlertView) => alert.confirmedAt === null;

/** The ids "select all" toggles, and whether they are all selected: the table and the cards alike. */
export function selectionState(
  alerts: AlertTableProps['alerts'],
  selection: AlertTableProps['selection'],
) {
  const confirmable = alerts.filter(needsConfirm).map((a) => a.id);
  const allSelected =
    selection !== null &&
    confirmable.length > 0 &&
    confirmable.every((id) => selection.selected.has(id));
  return { confirmable, allSelected };
}

/** What the table's cells and the phone's cards both say about an alert. */
export function useAlertCells() {
  const { t } = useTranslation('alerts');
  return {
    time: (alert: AlertView) => <DateTime at={alert.openedAt} />,
    status: (alert: AlertView) => {
      if (alert.confirmedAt === null)
        return alert.status === 'OPEN' ? t('status.open') : t('status.closed');
      return (
        <>
          {t('status.confirmed', { name: alert.confirmedBy?.name ?? '' })}
          {alert.confirmReason !== null && (
            <span
              className="block text-xs font-normal text-slate-600"
              data-testid="alert-confirm-reason"
            >
              {t(`reasons.${alert.confirmReason}`)}
            </span>
          )}
          {alert.confirmNote !== null && (
            <span
              className="block text-xs font-normal break-words text-slate-600"
              data-testid="alert-confirm-note"
            >
              {alert.confirmNote}
            </span>
          )}
        </>
      );
    },
  };
}
