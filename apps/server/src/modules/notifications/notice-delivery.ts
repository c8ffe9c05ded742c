import {
  alertLinkPath,
  CONSOLE_ALERT_HISTORY_PATH,
  consoleAlertPath,
  type ChatChannel,
  isChatChannel,
  type NotificationChannel,
  type PushNoticePayload,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { AlertForNotice } from './notifications.repository.js';
import { PERSONAL_HOME } from './family-notice.js';
import { pushService } from '../push/push.service.js';
import { alertLinksService } from '../alerts/alert-links.service.js';
import {
  CHAT_PROVIDER_NAMES,
  chatChannelsService,
} from '../chat-channels/chat-channels.service.js';
import type { NotificationProvider, SendResult } from './notification-provider.js';

/** A notice about to leave by one channel. */
export interface OutgoingNotice {
  /** Whose notice it is (a chat channel is the organisation's). */
  organizationId: string;
  channel: NotificationChannel;
  /**
   * The phone number (SMS, call), the staff member's user id (PUSH: their subscribed browsers) or a chat
   * channel's address (chatAddress: the organisation's Slack, Teams or LINE WORKS channel).
   */
  to: string;
  text: string;
  /** The log entry's id: a push's Topic, so a retry replaces an undelivered copy (RFC 8030 §5.4). */
  notificationId: string;
  /** What the push notification opens and offers (PUSH; a chat message's 確認 is its alertId). */
  push: Omit<PushNoticePayload, 'title' | 'body'>;
}

/**
 * A push about `alert` (single) or about the alerts a grouped message or summary covers (`alert` the newest):
 * 詳細 opens the wearer's alerts, else the alert history; 確認 only on a single alert's notice.
 */
export function pushOfAlert(
  alert: Pick<AlertForNotice, 'id' | 'organization_id' | 'wearer_id' | 'level' | 'family'>,
  single: boolean,
): OutgoingNotice['push'] {
  // A family member reads the wearer's records and alerts on their own page, and does not confirm.
  if (alert.family)
    return {
      alertId: null,
      url: PERSONAL_HOME,
      emergency: alert.level === 'EMERGENCY',
      confirmable: false,
    };
  return {
    alertId: single ? alert.id : null,
    url:
      single && alert.wearer_id
        ? consoleAlertPath(alert.organization_id, alert.wearer_id)
        : CONSOLE_ALERT_HISTORY_PATH,
    emergency: alert.level === 'EMERGENCY',
    confirmable: single,
  };
}

/** A push about no one alert (a site's heat, a silent gateway): 詳細 opens the alert history, no 確認. */
export const SITE_NOTICE_PUSH: OutgoingNotice['push'] = {
  alertId: null,
  url: CONSOLE_ALERT_HISTORY_PATH,
  emergency: false,
  confirmable: false,
};

/** A chat notice's heading (the text itself says the level, who, what and where). */
const CHAT_TITLE = '見守りアラート';

/** Who and what, then the rest: "【緊急】佐藤さん: SOS (1階) 14:03 場所: …" split at its first colon. */
export function pushWords(text: string): { title: string; body: string } {
  const at = text.indexOf(': ');
  return at < 0
    ? { title: text, body: '' }
    : { title: text.slice(0, at), body: text.slice(at + 2) };
}

/**
 * Where notices leave, by channel: SMS and calls through the phone provider (Twilio or the embedded log), PUSH
 * through the push module to the person's browsers. One place, so every notice path (alerts, the policy's
 * windows, site heat, gateway silence, tests) treats a new channel alike.
 */
export function noticeDelivery(ctx: AppContext, provider: NotificationProvider) {
  const push = pushService(ctx);

  /**
   * A chat channel's message (modules/chat-channels): the notice, 詳細 (the alert's short link; a grouped
   * message or summary: the alert history) and, for one alert, 確認.
   */
  async function chatNotice(
    organizationId: string,
    channel: ChatChannel,
    text: string,
    alertId: string | null,
  ): Promise<SendResult> {
    const link = alertId
      ? `${ctx.config.publicUrl}${alertLinkPath(await alertLinksService(ctx).codeFor(alertId))}`
      : `${ctx.config.publicUrl}${CONSOLE_ALERT_HISTORY_PATH}`;
    return chatChannelsService(ctx).deliver(organizationId, channel, {
      title: CHAT_TITLE,
      text,
      link,
      confirmAlertId: alertId,
    });
  }

  return {
    /** The recipient's address on `channel`: their number, or (PUSH) the staff member; null when there is none. */
    addressOf(
      r: { user_id: string | null; phone_number: string | null },
      channel: NotificationChannel,
    ): string | null {
      // PUSH and LINE go to a person (their browsers; the LINE user linked to them), not a number.
      return channel === 'PUSH' || channel === 'LINE' ? r.user_id : r.phone_number;
    },
    /** The provider the log names: the phone provider's, web-push, or the chat service's. */
    providerOf(channel: NotificationChannel): string {
      return isChatChannel(channel) || channel === 'LINE'
        ? CHAT_PROVIDER_NAMES[channel]
        : channel === 'PUSH'
          ? 'web-push'
          : provider.name;
    },
    /** What the log says when addressOf gave null. */
    noAddress(channel: NotificationChannel): string {
      return channel === 'PUSH' || channel === 'LINE'
        ? `a ${channel === 'LINE' ? 'LINE message' : 'push'} goes to a person, not to a number`
        : 'the recipient has no phone number';
    },
    /** The provider's answer; never throws (a failure is a 'failed' result). */
    deliver(m: OutgoingNotice): Promise<SendResult> {
      switch (m.channel) {
        case 'SMS':
          return provider.sendSms(m.to, m.text);
        case 'PHONE_CALL':
          return provider.call(m.to, m.text);
        case 'PUSH':
          return push.pushToPerson(m.to, { ...m.push, ...pushWords(m.text) }, m.notificationId);
        case 'SLACK':
        case 'TEAMS':
        case 'LINE_WORKS':
          return chatNotice(m.organizationId, m.channel, m.text, m.push.alertId);
        // A family member's LINE (decision 0024): their linked LINE user, with 見ました for this notice.
        case 'LINE':
          return chatChannelsService(ctx).pushToFamily(
            m.organizationId,
            m.to,
            m.text,
            m.notificationId,
          );
      }
    },
  };
}
export type NoticeDelivery = ReturnType<typeof noticeDelivery>;
