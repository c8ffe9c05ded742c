import { onCallAt } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { handoverMessage } from './notification-texts.js';
import type { NotificationProvider } from './notification-provider.js';
import { notificationsRepository } from './notifications.repository.js';
import { onCallOptionsOf } from './on-call.service.js';
import { onCallRepository, openAlertsOfGroup, toOverride } from './on-call.repository.js';

/**
 * A handover is told for this long after it happens: a server that was down at 09:00 and starts at
 * 09:10 still tells the incoming person; one that starts at noon does not send a morning's summary.
 */
export const HANDOVER_TELL_WITHIN_MS = 15 * 60_000;
/** Alerts a summary names (the count says how many more). */
const HANDOVER_NAMES = 5;

/**
 * The handover summary (issue 38 item 3): when someone comes on call (a rota's turn, a shift, an
 * override's start or end), they get one SMS naming the group's open, unconfirmed alerts. The leader's
 * sweep sends it; the handover's row (group, instant) makes it once, whichever server sweeps.
 */
export function onCallHandoversService(ctx: AppContext, provider: NotificationProvider) {
  const repo = onCallRepository(ctx.db);
  const notifications = notificationsRepository(ctx.db);

  return {
    /** Tells the handovers of the last 15 minutes not told yet (of one organisation when given); how many messages. */
    async sweep(organizationId?: string): Promise<number> {
      const now = ctx.now();
      let sent = 0;
      for (const g of await repo.groupsWithRota(organizationId ?? null)) {
        const overrides = (await repo.overrides(g.group_id, now)).map(toOverride);
        const slot = onCallAt(g.rota, overrides, now, g.time_zone, onCallOptionsOf(g));
        if (!slot.userIds.length) continue;
        const age = now.getTime() - slot.from.getTime();
        if (age < 0 || age > HANDOVER_TELL_WITHIN_MS) continue;
        if (
          !(await repo.claimHandover(g.organization_id, g.group_id, slot.from, slot.userIds, now))
        )
          continue;
        const open = await openAlertsOfGroup(ctx.db, g.organization_id, g.group_id, HANDOVER_NAMES);
        const text = handoverMessage({
          groupName: g.group_name,
          from: slot.from,
          until: slot.until,
          timeZone: g.time_zone,
          total: open.total,
          alerts: open.alerts.map((a) => ({
            type: a.type,
            wearerName: a.wearer_name ?? a.device_serial ?? '',
          })),
          link: `${ctx.config.publicUrl}/alert-histories/handover`,
        });
        for (const p of await repo.people(g.organization_id, slot.userIds)) {
          if (!p.phone_number) continue; // nothing to send to; the console's group page shows the rota
          const id = await notifications.insertMessage(
            {
              channel: 'SMS',
              organizationId: g.organization_id,
              userId: p.id,
              recipient: p.phone_number,
              provider: provider.name,
              text,
            },
            now,
          );
          await notifications.recordOutcome(
            id,
            await provider.sendSms(p.phone_number, text),
            ctx.now(),
          );
          sent++;
        }
      }
      return sent;
    },
  };
}
