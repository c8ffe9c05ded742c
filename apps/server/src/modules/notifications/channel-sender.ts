import {
  CONSOLE_ALERT_HISTORY_PATH,
  alertLinkPath,
  isChatChannel,
  type NotificationChannel,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { alertLinksService } from '../alerts/alert-links.service.js';
import {
  CHAT_PROVIDER_NAMES,
  chatChannelsService,
} from '../chat-channels/chat-channels.service.js';
import type { NotificationProvider, SendResult } from './notification-provider.js';

/** One message the notifier sends, whatever the channel. */
export interface ChannelMessage {
  organizationId: string;
  channel: NotificationChannel;
  /** A phone number, or a chat channel's address (chatAddress). */
  to: string;
  text: string;
  /** The one alert the message tells of (a chat's 確認 confirms it); null for a grouped message or summary. */
  alertId: string | null;
}

/** A chat notice's heading (the text itself says the level, who, what and where). */
const CHAT_TITLE = '見守りアラート';

/**
 * Where a notice leaves, by its channel: SMS and calls through the phone provider (Twilio or the
 * embedded log), a chat channel through the organisation's chat adapter (modules/chat-channels) with
 * a link to the alert (its short link; a grouped message: the alert history) and, for one alert, 確認.
 */
export function channelSender(ctx: AppContext, provider: NotificationProvider) {
  return {
    /** The provider an attempt on this channel is logged under. */
    providerName: (channel: NotificationChannel): string =>
      isChatChannel(channel) ? CHAT_PROVIDER_NAMES[channel] : provider.name,

    async send(m: ChannelMessage): Promise<SendResult> {
      if (m.channel === 'SMS') return provider.sendSms(m.to, m.text);
      if (m.channel === 'PHONE_CALL') return provider.call(m.to, m.text);
      const link = m.alertId
        ? `${ctx.config.publicUrl}${alertLinkPath(await alertLinksService(ctx).codeFor(m.alertId))}`
        : `${ctx.config.publicUrl}${CONSOLE_ALERT_HISTORY_PATH}`;
      return chatChannelsService(ctx).deliver(m.organizationId, m.channel, {
        title: CHAT_TITLE,
        text: m.text,
        link,
        confirmAlertId: m.alertId,
      });
    },
  };
}
