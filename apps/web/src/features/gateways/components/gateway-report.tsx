import type { GatewayListItem } from '@wearable/domain';
import { useTranslation } from 'react-i18next';

/** At or below this, not charging, the line says the battery is low (in words, not colour alone). */
const LOW_BATTERY = 20;

/**
 * What the gateway last said of itself (a phone's battery, charging, app version), in one short line;
 * nothing when it never sent a status.
 */
export function GatewayReport({ gateway }: { gateway: Pick<GatewayListItem, 'report'> }) {
  const { t } = useTranslation();
  const report = gateway.report;
  if (report === null) return null;
  const parts: string[] = [];
  if (report.battery !== null) {
    const key =
      report.charging === true
        ? 'gatewayReport.batteryCharging'
        : report.battery <= LOW_BATTERY
          ? 'gatewayReport.batteryLow'
          : 'gatewayReport.battery';
    parts.push(t(key, { percent: report.battery }));
  }
  if (report.appVersion !== null)
    parts.push(t('gatewayReport.appVersion', { version: report.appVersion }));
  if (parts.length === 0) return null;
  return (
    <span className="block text-xs text-slate-600" data-testid="gateway-report">
      {parts.join(t('gatewayReport.separator'))}
    </span>
  );
}
