import type { AlertView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { isDemoPath } from '../../../lib/demo';
import { useCan } from '../../../lib/use-can';
import { useAlertList } from '../api/alerts-api';
import type { AlertFilterState } from '../api/alert-filters';
import { alertTypeLabel, placeLabel } from './alert-text';
import { useConfirmAlerts } from './use-confirm-alerts';

/** Unconfirmed EMERGENCY alerts of any age: an SOS waits for someone whatever the period. */
const OPEN_EMERGENCIES: AlertFilterState = {
  notConfirmed: true,
  type: '',
  level: 'EMERGENCY',
  period: 'all',
};

/**
 * /devices: SOS and falls from devices no wearer holds (issue 34), which belong to no wearer's row,
 * as a red banner above the list until staff confirm them; confirming offers to register the device
 * or assign it to a wearer. The list read is the alert list's own (the live stream keeps it current).
 */
export function UnassignedAlertsBanner() {
  const { pathname } = useLocation();
  // The demo is read-only and polls no alerts (spec: notifications are off in demo mode).
  return isDemoPath(pathname) ? null : <OpenUnassignedAlerts />;
}

function OpenUnassignedAlerts() {
  const { t } = useTranslation('alerts');
  const list = useAlertList(OPEN_EMERGENCIES, 1, 200);
  const confirmFlow = useConfirmAlerts();
  const alerts = (list.data?.alerts ?? []).filter((a) => a.wearer === null && a.device !== null);
  if (alerts.length === 0) return confirmFlow.dialog;
  return (
    <section
      aria-label={t('unassigned.bannerTitle')}
      data-testid="unassigned-alerts"
      className="mb-4 rounded-lg border-2 border-red-700 bg-red-50 p-3"
    >
      <h2 className="text-base font-bold text-red-900">{t('unassigned.bannerTitle')}</h2>
      <ul className="mt-2 flex flex-col gap-2">
        {alerts.map((alert) => (
          <UnassignedAlertItem
            key={alert.id}
            alert={alert}
            onConfirm={() => confirmFlow.ask([alert.id], alert)}
            pending={confirmFlow.pendingIds.has(alert.id)}
          />
        ))}
      </ul>
      {confirmFlow.dialog}
    </section>
  );
}

function UnassignedAlertItem({
  alert,
  onConfirm,
  pending,
}: {
  alert: AlertView;
  onConfirm: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation('alerts');
  const canConfirm = useCan('alert:confirm', {
    organizationId: alert.clientId,
    groupIds: alert.groupId === null ? [] : [alert.groupId],
  });
  const serial = alert.device?.serial ?? '';
  const place = placeLabel(t, alert.place);
  return (
    <li
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md bg-white p-2"
      data-testid="unassigned-alert"
      data-alert-id={alert.id}
    >
      <span className="font-semibold text-red-900">
        {t('unassigned.banner', { type: t(`types.${alert.type}`), serial })}
      </span>
      <span className="text-sm text-slate-800">
        <DateTime at={alert.openedAt} />
        {place !== null && <> · {place}</>}
      </span>
      {canConfirm && (
        <Button
          variant="outline"
          className="ml-auto min-h-11"
          data-testid="unassigned-alert-confirm"
          disabled={pending}
          onClick={onConfirm}
          aria-label={t('actions.confirmOne', { type: alertTypeLabel(t, alert), name: serial })}
        >
          {t('actions.confirm')}
        </Button>
      )}
    </li>
  );
}
