import type { Actor, HandoverQuery, HandoverResponse } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { alertScope, SqlParams } from '../../access/scope-sql.js';
import { ALERT_SELECT, type AlertRow } from './alerts.repository.js';
import { toAlertView } from './alerts.service.js';
import { snoozesService } from './snoozes.service.js';

/** Most rows of each list; the counts say how many there are. */
export const HANDOVER_MAX_ROWS = 200;

export function handoverService(ctx: AppContext) {
  return {
    /**
     * The shift handover: alerts open now, snoozes active now or set or ended during the shift (and by
     * whom), and alerts confirmed during the shift (who, reason, note): the last `hours` (default 8).
     */
    async handover(actor: Actor, q: HandoverQuery): Promise<HandoverResponse> {
      const to = ctx.now();
      const from = new Date(to.getTime() - q.hours * 3600_000);
      const scoped = (p: SqlParams) =>
        alertScope(actor, p, { organizationId: q.clientId, groupId: q.groupId });

      async function alerts(condition: (p: SqlParams) => string, order: string) {
        const p = new SqlParams();
        const where = `${scoped(p)} AND ${condition(p)}`;
        const [count] = await ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM alerts a LEFT JOIN users u ON u.id = a.wearer_id WHERE ${where}`,
          p.values,
        );
        const rows = await ctx.db.query<AlertRow>(
          `${ALERT_SELECT} WHERE ${where} ORDER BY ${order} LIMIT ${HANDOVER_MAX_ROWS}`,
          p.values,
        );
        return { alerts: rows.map(toAlertView), total: count?.n ?? 0 };
      }

      const [open, confirmed, snoozes] = await Promise.all([
        alerts(() => "a.status = 'OPEN'", 'a.opened_at DESC, a.id'),
        alerts(
          (p) => `a.confirmed_at >= ${p.add(from)} AND a.confirmed_at <= ${p.add(to)}`,
          'a.confirmed_at DESC, a.id',
        ),
        snoozesService(ctx).find(
          actor,
          { organizationId: q.clientId, groupId: q.groupId },
          to,
          from,
        ),
      ]);
      return { from: from.toISOString(), to: to.toISOString(), open, confirmed, snoozes };
    },
  };
}
