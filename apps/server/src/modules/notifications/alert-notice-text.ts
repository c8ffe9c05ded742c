import {
  alertPlace,
  consoleAlertPath,
  isHeatAlertType,
  type NotificationChannel,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { heatRuleService } from '../heat-rule/heat-rule.service.js';
import { type AlertMessageInput, alertMessage } from './notification-texts.js';
import type { AlertForNotice } from './notifications.repository.js';

/**
 * The single-alert text (with the site's hospital for a heat alert, Japan's 2025 heat rule). An
 * alert that stored its place names it; its SMS also links to the wearer's alerts in the console.
 */
export async function alertNoticeText(
  ctx: AppContext,
  alert: AlertForNotice,
  step: number,
  reminder = false,
  channel: NotificationChannel = 'SMS',
): Promise<string> {
  const hospital =
    alert.group_id && isHeatAlertType(alert.type)
      ? await heatRuleService(ctx).hospital(alert.group_id)
      : null;
  const parsed = alertPlace.nullable().safeParse(alert.place ?? null);
  const place = parsed.success ? parsed.data : null;
  const link =
    place !== null && channel === 'SMS'
      ? `${ctx.config.publicUrl}${consoleAlertPath(alert.organization_id, alert.wearer_id)}`
      : null;
  return alertMessage({
    hospital,
    type: alert.type,
    level: alert.level,
    wearerName: alert.wearer_name,
    groupName: alert.group_name,
    openedAt: new Date(alert.opened_at),
    timeZone: alert.time_zone,
    step,
    reminder,
    place,
    link,
    cause: alert.cause as AlertMessageInput['cause'],
  });
}
