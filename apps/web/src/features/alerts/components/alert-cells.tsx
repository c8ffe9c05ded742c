import type { AlertView } from '@wearable/domain';
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
  confirmingId: string | null;
  showWearer?: boolean;
}

export const needsConfirm = (alert: AlertView) =>
  alert.confirmedAt === null && alert.status === 'OPEN';

/** What the table's cells and the phone's cards both say about an alert. */
export function useAlertCells() {
  const { t } = useTranslation('alerts');
  return {
    time: (alert: AlertView) => <DateTime at={alert.openedAt} />,
    status: (alert: AlertView) => {
      if (alert.confirmedAt !== null)
        return t('status.confirmed', { name: alert.confirmedBy?.name ?? '' });
      return alert.status === 'OPEN' ? t('status.open') : t('status.closed');
    },
  };
}
