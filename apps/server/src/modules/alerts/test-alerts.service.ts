import { randomUUID } from 'node:crypto';
import { type Actor, TEST_ALERT_RULE } from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import { ApiError } from '../../errors.js';
import { alertWritesRepository } from './alert-writes.repository.js';
import { announceOpened } from './engine-turn.js';

/**
 * A test alert (issue 35, the setup checklist's last step): an SOS of one wearer, marked as a test in
 * its cause (rule `test-alert`), opened through the same write as every alert (insertOpenAlert: its
 * live frame and notices leave through the alert outbox, the escalation as for any SOS), so it shows
 * that the group's recipients really get the SMS or call and the console's pop-up. It closes only when
 * staff confirm it, like any SOS. It is not handed to webhooks: another system must not act on a test.
 * The notices and the console say "test" (notification-texts.ts, the alert views).
 */
export function testAlertsService(ctx: AppContext) {
  return {
    async open(
      actor: Actor,
      organizationId: string,
      wearerId: string,
    ): Promise<{ alertId: string; wearerId: string }> {
      const at = await accessService(ctx.db).require(actor, 'alert:test', 'wearer', wearerId);
      // The contract names the organisation; a wearer of another one is unknown here.
      if (at.organizationId !== organizationId) throw notFoundError('wearer', wearerId);
      const now = ctx.now();
      const opened = await ctx.db.transaction(async (tx) => {
        const [wearer] = await tx.query<{ groupId: string | null; braceletId: string | null }>(
          `SELECT u.group_id AS "groupId", b.id AS "braceletId"
             FROM users u LEFT JOIN bracelets b ON b.wearer_id = u.id
            WHERE u.id = $1`,
          [wearerId],
        );
        return alertWritesRepository(tx).insertOpen({
          id: randomUUID(),
          organizationId,
          groupId: wearer?.groupId ?? null,
          wearerId,
          braceletId: wearer?.braceletId ?? null,
          type: 'SOS_CALL',
          level: 'EMERGENCY',
          openedAt: now,
          raisedAt: now,
          cause: {
            rule: TEST_ALERT_RULE,
            values: { test: true, by: actor.uid },
            windowStart: now.toISOString(),
            windowEnd: now.toISOString(),
          },
          notify: true,
          place: null,
        });
      });
      if (!opened) {
        throw new ApiError(
          409,
          'ALERT_ALREADY_OPEN',
          `body.uid: wearer ${wearerId} has an open SOS; confirm it before sending a test alert`,
          [{ path: 'body.uid', message: 'this wearer has an open SOS; confirm it first' }],
        );
      }
      announceOpened(ctx, [opened]);
      notifyWearerUpdated(ctx, { organizationId, groupId: opened.groupId, wearerId });
      return { alertId: opened.id, wearerId };
    },
  };
}
