import type { Queryable } from '../../db/client.js';

/** What follows an alert's opening, delivered from the outbox (migration 038). */
export type AlertOutboxKind = 'live' | 'notice';

export interface AlertOutboxEntry {
  alertId: string;
  kind: AlertOutboxKind;
}

export interface ClaimedEntry {
  alertId: string;
  organizationId: string;
  attempts: number;
  /** An EMERGENCY alert (SOS, fall): delivered on the database's urgent lane. */
  emergency: boolean;
}

// An opened alert's own INSERT enqueues its kinds (modules/alerts/alert-writes.repository.ts insertOpenAlert).
export function alertOutboxRepository(db: Queryable) {
  return {
    /** In the alert's transaction: one row per (alert, kind); a row already there stays as it is. */
    async enqueue(entries: readonly AlertOutboxEntry[]): Promise<void> {
      if (!entries.length) return;
      await db.query(
        `INSERT INTO alert_outbox (alert_id, kind, organization_id)
         SELECT a.id, x.k, a.organization_id
           FROM unnest($1::text[], $2::text[]) AS x(a, k) JOIN alerts a ON a.id = x.a
         ON CONFLICT (alert_id, kind) DO NOTHING`,
        [entries.map((e) => e.alertId), entries.map((e) => e.kind)],
      );
    },

    /**
     * Claims due rows of one kind: their due time moves to `leaseUntil`, so no other server takes
     * them while they are delivered, and a server killed meanwhile leaves them due again after it.
     */
    claim(
      kind: string,
      now: Date,
      leaseUntil: Date,
      limit: number,
      /** Only these alerts (tests sharing one database); null: every alert. */
      only: readonly string[] | null = null,
    ): Promise<ClaimedEntry[]> {
      return db.query<ClaimedEntry>(
        `UPDATE alert_outbox o SET next_attempt_at = $3, attempts = o.attempts + 1
           FROM alerts a
          WHERE a.id = o.alert_id AND (o.alert_id, o.kind) IN (
                  SELECT q.alert_id, q.kind FROM alert_outbox q JOIN alerts qa ON qa.id = q.alert_id
                   WHERE q.kind = $1 AND q.next_attempt_at <= $2
                     AND ($5::text[] IS NULL OR q.alert_id = ANY($5::text[]))
                   -- An EMERGENCY (SOS, fall) first, then the oldest due.
                   ORDER BY qa.level = 'EMERGENCY' DESC, q.next_attempt_at
                   LIMIT $4 FOR UPDATE OF q SKIP LOCKED)
          RETURNING o.alert_id AS "alertId", o.organization_id AS "organizationId", o.attempts,
                    a.level = 'EMERGENCY' AS emergency`,
        [kind, now, leaseUntil, limit, only],
      );
    },

    /** Delivered: the rows go. */
    async done(kind: string, alertIds: readonly string[]): Promise<void> {
      if (!alertIds.length) return;
      await db.query('DELETE FROM alert_outbox WHERE kind = $1 AND alert_id = ANY($2::text[])', [
        kind,
        alertIds,
      ]);
    },

    /** Failed: tried again at `at`. */
    async retryAt(kind: string, alertId: string, at: Date, error: string): Promise<void> {
      await db.query(
        'UPDATE alert_outbox SET next_attempt_at = $3, last_error = $4 WHERE kind = $1 AND alert_id = $2',
        [kind, alertId, at, error.slice(0, 500)],
      );
    },

    /** Rows still waiting (tests, /readyz-style checks). */
    pending(alertId: string): Promise<{ kind: string; attempts: number }[]> {
      return db.query('SELECT kind, attempts FROM alert_outbox WHERE alert_id = $1 ORDER BY kind', [
        alertId,
      ]);
    },
  };
}
