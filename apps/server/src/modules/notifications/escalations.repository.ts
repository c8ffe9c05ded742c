import type { Queryable } from '../../db/client.js';

export interface EscalationRow {
  alert_id: string;
  current_step: number;
  upgraded: boolean;
}

export function escalationsRepository(db: Queryable) {
  return {
    async startEscalation(
      alertId: string,
      organizationId: string,
      step: number,
      dueAt: Date,
    ): Promise<void> {
      await db.query(
        `INSERT INTO notification_escalations (alert_id, organization_id, current_step, due_at)
     VALUES ($1, $2, $3, $4) ON CONFLICT (alert_id) DO NOTHING`,
        [alertId, organizationId, step, dueAt],
      );
    },

    /**
     * Claims the escalations that are due by pushing their due time forward, so that another
     * server's sweeper (or the next sweep) does not take the same rows while they are handled.
     */
    async claimDue(
      now: Date,
      retryAt: Date,
      organizationId: string | null = null,
      limit = 50,
    ): Promise<EscalationRow[]> {
      return db.query<EscalationRow>(
        `UPDATE notification_escalations SET due_at = $2
      WHERE alert_id IN (SELECT alert_id FROM notification_escalations
                          WHERE done_at IS NULL AND due_at <= $1
                            AND ($4::text IS NULL OR organization_id = $4)
                          ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING alert_id, current_step, upgraded`,
        [now, retryAt, limit, organizationId],
      );
    },

    async advanceEscalation(
      alertId: string,
      step: number,
      upgraded: boolean,
      dueAt: Date,
    ): Promise<void> {
      await db.query(
        'UPDATE notification_escalations SET current_step = $2, upgraded = $3, due_at = $4 WHERE alert_id = $1',
        [alertId, step, upgraded, dueAt],
      );
    },

    async finishEscalation(alertId: string, at: Date, reason: string): Promise<void> {
      await db.query(
        'UPDATE notification_escalations SET done_at = $2, done_reason = $3 WHERE alert_id = $1 AND done_at IS NULL',
        [alertId, at, reason],
      );
    },

    /**
     * Confirmed alerts stop escalating at once, in the confirmation's transaction: whichever server the
     * confirmation reached, the leader's next sweep finds nothing due (and the sweep re-checks confirmed_at).
     */
    async finishEscalations(alertIds: readonly string[], at: Date, reason: string): Promise<void> {
      if (!alertIds.length) return;
      await db.query(
        'UPDATE notification_escalations SET done_at = $2, done_reason = $3 WHERE alert_id = ANY($1::text[]) AND done_at IS NULL',
        [alertIds, at, reason],
      );
    },
  };
}
