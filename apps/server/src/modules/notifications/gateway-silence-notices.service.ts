import { type NotificationChannel } from '@wearable/domain';
import { recipientOnDuty } from './recipient-schedule.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { gatewaySilenceService } from '../gateway-silence/gateway-silence.service.js';
import { gatewaySilenceNoticesRepository } from './gateway-silence-notices.repository.js';
import { gatewaySilenceMessage } from './gateway-silence-texts.js';
import { noticeBucketsRepository } from './notice-buckets.repository.js';
import type { NotificationProvider } from './notification-provider.js';
import { noticeDelivery, SITE_NOTICE_PUSH } from './notice-delivery.js';
import { notificationsRepository } from './notifications.repository.js';
import { onCallService } from './on-call.service.js';

/**
 * A silent gateway's one notice (issue 34 item 6) to its group's device-status contacts (their
 * notice recipients of DISCONNECTION whose schedule covers now, at the first step), each by their
 * channel, once per silence; and the inhibition's other half: a DISCONNECTION withheld because its
 * gateway is silent is covered by that message (notification_alerts), so the alert's timeline and
 * the message's list name each other.
 */
export function gatewaySilenceNoticesService(ctx: AppContext) {
  const silences = gatewaySilenceService(ctx);
  const repo = gatewaySilenceNoticesRepository(ctx.db);
  return {
    /** Sends the silence's notices (nothing when already sent or the gateway has no group); how many. */
    async notifySilence(provider: NotificationProvider, silenceId: string): Promise<number> {
      const s = await silences.byId(silenceId);
      if (!s?.group_id || s.closed_at) return 0;
      if (await repo.silenceNotified(silenceId)) return 0;
      const where = await repo.groupContext(s.group_id);
      if (!where) return 0;
      const now = ctx.now();
      const contacts = await onCallService(ctx).expand(
        (await notificationsRepository(ctx.db).groupRecipients(s.group_id)).filter(
          (r) =>
            r.alert_types.includes('DISCONNECTION') && recipientOnDuty(r, now, where.time_zone),
        ),
        now,
      );
      const first = Math.min(...contacts.map((r) => r.step));
      const text = gatewaySilenceMessage({
        gatewayName: s.gateway_name,
        groupName: where.group_name,
        wearerCount: s.wearer_count,
        lastHeardAt: new Date(s.last_heard_at),
        at: now,
        timeZone: where.time_zone,
      });
      // DISCONNECTION alerts already open (their tick came before this sweep) are named by it too.
      const covered = await silences.openDisconnectionsOf(s.gateway_id);
      const delivery = noticeDelivery(ctx, provider);
      let sent = 0;
      for (const r of contacts.filter((x) => x.step === first)) {
        const attempt = {
          organizationId: s.organization_id,
          silenceId,
          channel: r.channel,
          userId: r.user_id,
          recipient: delivery.addressOf(r, r.channel),
          provider: delivery.providerOf(r.channel),
          text,
        };
        sent++;
        const to = attempt.recipient;
        if (!to) {
          await repo.insertSilenceAttempt(attempt, 'failed', now, delivery.noAddress(r.channel));
          continue;
        }
        // Queued first, so an attempt is on record even if the provider never answers.
        const id = await repo.insertSilenceAttempt(attempt, 'queued', now, null);
        await noticeBucketsRepository(ctx.db).coverAlerts(id, covered);
        const outcome = await delivery.deliver({
          channel: r.channel,
          to,
          text,
          organizationId: s.organization_id,
          notificationId: id,
          push: SITE_NOTICE_PUSH,
        });
        await notificationsRepository(ctx.db).recordOutcome(id, outcome, ctx.now());
      }
      return sent;
    },

    /** The silence's message to this recipient covers an alert the silence inhibited (in `tx`). */
    coverInhibited: (
      tx: Queryable,
      silenceId: string,
      alertId: string,
      recipient: string,
      channel: NotificationChannel,
    ): Promise<void> =>
      gatewaySilenceNoticesRepository(tx).coverInhibited(silenceId, alertId, recipient, channel),
  };
}
