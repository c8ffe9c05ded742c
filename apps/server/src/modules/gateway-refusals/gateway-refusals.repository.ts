import type { GatewayRefusalReason } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

/** Refusals of one reason and serial on one gateway, counted since they were first listed. */
export interface RefusalCount {
  gatewayId: string;
  reason: GatewayRefusalReason;
  /** '' when the item named no serial. */
  serial: string;
  list: string;
  detail: string;
  times: number;
  firstAt: Date;
  lastAt: Date;
}

/** Rows kept per gateway (the most recent), and how long: the list is of what happens lately. */
export const REFUSALS_PER_GATEWAY = 200;
export const REFUSALS_KEPT_MS = 7 * 86_400_000;

export function gatewayRefusalsRepository(db: Queryable) {
  return {
    /** Adds counts for all gateways in one statement, then trims those gateways' rows. */
    async record(counts: RefusalCount[], now: Date): Promise<void> {
      if (counts.length === 0) return;
      await db.query(
        `INSERT INTO gateway_refusals AS r
           (gateway_id, reason, serial_number, list, detail, times, first_at, last_at)
         SELECT c.gateway_id, c.reason, c.serial, c.list, c.detail, c.times, c.first_at, c.last_at
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[],
                       $7::timestamptz[], $8::timestamptz[])
             AS c(gateway_id, reason, serial, list, detail, times, first_at, last_at)
           -- A gateway retired meanwhile has nothing left to list.
           JOIN gateways g ON g.id = c.gateway_id
         ON CONFLICT (gateway_id, reason, serial_number) DO UPDATE
           SET list = CASE WHEN EXCLUDED.last_at >= r.last_at THEN EXCLUDED.list ELSE r.list END,
               detail = CASE WHEN EXCLUDED.last_at >= r.last_at THEN EXCLUDED.detail ELSE r.detail END,
               times = LEAST(r.times::bigint + EXCLUDED.times, 2147483647)::int,
               first_at = LEAST(r.first_at, EXCLUDED.first_at),
               last_at = GREATEST(r.last_at, EXCLUDED.last_at)`,
        [
          counts.map((c) => c.gatewayId),
          counts.map((c) => c.reason),
          counts.map((c) => c.serial),
          counts.map((c) => c.list),
          counts.map((c) => c.detail),
          counts.map((c) => c.times),
          counts.map((c) => c.firstAt.toISOString()),
          counts.map((c) => c.lastAt.toISOString()),
        ],
      );
      await db.query(
        `DELETE FROM gateway_refusals r USING (
           SELECT gateway_id, reason, serial_number, last_at,
                  row_number() OVER (PARTITION BY gateway_id ORDER BY last_at DESC, reason, serial_number) AS n
             FROM gateway_refusals WHERE gateway_id = ANY($1::text[])) k
          WHERE r.gateway_id = k.gateway_id AND r.reason = k.reason AND r.serial_number = k.serial_number
            AND (k.n > $2 OR k.last_at < $3)`,
        [
          [...new Set(counts.map((c) => c.gatewayId))],
          REFUSALS_PER_GATEWAY,
          new Date(now.getTime() - REFUSALS_KEPT_MS).toISOString(),
        ],
      );
    },

    /** The gateway's refusals since `since`, latest first. */
    async list(gatewayId: string, since: Date): Promise<RefusalCount[]> {
      return db.query<RefusalCount>(
        `SELECT gateway_id AS "gatewayId", reason, serial_number AS serial, list, detail, times,
                first_at AS "firstAt", last_at AS "lastAt"
           FROM gateway_refusals WHERE gateway_id = $1 AND last_at >= $2
          ORDER BY last_at DESC, reason, serial_number`,
        [gatewayId, since.toISOString()],
      );
    },

    /** An organisation's registered serials (for "did you mean …?"): read with the list only. */
    async serialsOf(organizationId: string): Promise<string[]> {
      return (
        await db.query<{ serial: string }>(
          'SELECT serial_number AS serial FROM bracelets WHERE organization_id = $1',
          [organizationId],
        )
      ).map((r) => r.serial);
    },
  };
}
