import { HEAT_ALERT_TYPES, siteHeatNoticeOf } from '@wearable/domain';
import { recipientOnDuty } from './recipient-schedule.js';
import type { AppContext } from '../../context.js';
import type { SiteHeatChangedEvent } from '../../bus/events.js';
import type { NotificationProvider } from './notification-provider.js';
import { noticeDelivery, SITE_NOTICE_PUSH } from './notice-delivery.js';
import { notificationsRepository } from './notifications.repository.js';
import { onCallService } from './on-call.service.js';
import { siteHeatNoticesRepository } from './site-heat-notices.repository.js';
import { siteHeatMessage } from './site-heat-texts.js';

export function siteHeatNoticesService(ctx: AppContext) {
  return {
    /**
     * Tells the group's heat contacts (its notice recipients of any heat alert type whose schedule
     * covers now, at the first step: later steps are escalation backups and a site change has nothing
     * to confirm) of a change of a site's heat level, once per change, each by their channel (a call
     * only for a rise to DANGER, otherwise SMS: siteHeatNoticeOf). Every message is in the log.
     * Returns how many messages were attempted.
     */
    async sendSiteHeatNotices(
      provider: NotificationProvider,
      e: SiteHeatChangedEvent,
    ): Promise<number> {
      const notice = siteHeatNoticeOf(e.change.from, e.change.to);
      const groupId = e.change.groupId;
      if (!notice || !groupId) return 0;
      if (await siteHeatNoticesRepository(ctx.db).siteHeatNotified(e.change.id)) return 0;
      const where = await siteHeatNoticesRepository(ctx.db).siteHeatNoticeContext(
        e.organizationId,
        groupId,
      );
      if (!where) return 0;
      const now = ctx.now();
      const heat = await onCallService(ctx).expand(
        (await notificationsRepository(ctx.db).groupRecipients(groupId)).filter(
          (r) =>
            r.alert_types.some((t) => (HEAT_ALERT_TYPES as readonly string[]).includes(t)) &&
            recipientOnDuty(r, now, where.time_zone),
        ),
        now,
      );
      const first = Math.min(...heat.map((r) => r.step));
      const text = siteHeatMessage({
        kind: notice.kind,
        from: e.change.from,
        to: e.change.to,
        wbgt: e.change.wbgt,
        groupName: where.group_name,
        gatewayName: e.change.gatewayName,
        at: new Date(e.change.at),
        timeZone: where.time_zone,
      });
      const delivery = noticeDelivery(ctx, provider);
      let sent = 0;
      for (const r of heat.filter((x) => x.step === first)) {
        const channel = r.channel === 'PHONE_CALL' && !notice.callAllowed ? 'SMS' : r.channel;
        const attempt = {
          organizationId: e.organizationId,
          siteHeatEventId: e.change.id,
          channel,
          userId: r.user_id,
          recipient: delivery.addressOf(r, channel),
          provider: delivery.providerOf(channel),
          text,
        };
        sent++;
        const to = attempt.recipient;
        if (!to) {
          await siteHeatNoticesRepository(ctx.db).insertSiteHeatAttempt(
            attempt,
            'failed',
            ctx.now(),
            delivery.noAddress(channel),
          );
          continue;
        }
        // Queued first, so an attempt is on record even if the provider never answers.
        const id = await siteHeatNoticesRepository(ctx.db).insertSiteHeatAttempt(
          attempt,
          'queued',
          ctx.now(),
          null,
        );
        const outcome = await delivery.deliver({
          channel,
          to,
          text,
          organizationId: e.organizationId,
          notificationId: id,
          push: SITE_NOTICE_PUSH,
        });
        await notificationsRepository(ctx.db).recordOutcome(id, outcome, ctx.now());
      }
      return sent;
    },
  };
}
