import {
  alertLinkPath,
  alertPlace,
  isHeatAlertType,
  type NotificationChannel,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { alertLinksService } from '../alerts/alert-links.service.js';
import { heatRuleService } from '../heat-rule/heat-rule.service.js';
import { type AlertMessageInput, alertMessage, alertSms } from './notification-texts.js';
import type { AlertForNotice } from './notifications.repository.js';

/**
 * The single-alert text (with the site's hospital for a heat alert, Japan's 2025 heat rule). An
 * alert that stored its place names it. Its SMS is made to fit one segment where it can
 * (`alertSms`) and ends with the alert's short link, `PUBLIC_URL/a/<code>` (issue 36 item 4), which
 * the console opens, after sign-in, on the wearer's alerts (a device no wearer holds: the alert
 * history); a call reads the full text and no address.
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
    channel === 'SMS' && !alert.family
      ? `${ctx.config.publicUrl}${alertLinkPath(await alertLinksService(ctx).codeFor(alert.id))}`
      : null;
  const input: AlertMessageInput = {
    hospital,
    type: alert.type,
    level: alert.level,
    wearerName: alert.wearer_name ?? '',
    deviceSerial: alert.wearer_id === null ? alert.device_serial : null,
    groupName: alert.group_name,
    openedAt: new Date(alert.opened_at),
    timeZone: alert.time_zone,
    step,
    reminder,
    place,
    link,
    cause: alert.cause as AlertMessageInput['cause'],
  };
  return channel === 'SMS' ? alertSms(input) : alertMessage(input);
}
