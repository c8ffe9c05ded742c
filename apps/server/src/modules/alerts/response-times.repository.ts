import type { Actor, AlertType } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { SqlParams, wearerScope } from '../../access/scope-sql.js';

/**
 * The alerts of one type in the period, as five packed columns of as many values, in the same order: when each
 * happened (opened_at) and was raised by the server (created_at), its first notice sent, first delivered
 * (alerts.first_notice_at / first_delivery_at) and confirmed.
 * Each value is PostgreSQL's binary timestamptz (timestamptz_send: big-endian int64 microseconds since
 * 2000-01-01 UTC, exact), NULL_INSTANT where the alert has none; each column base64.
 */
export interface ResponseTimesTypeDb {
  type: AlertType;
  opened_at: string;
  raised_at: string;
  first_notice_at: string;
  first_delivery_at: string;
  confirmed_at: string;
}

/** int64 minimum: an instant the alert does not have (no timestamptz is that early). */
export const NULL_INSTANT = '\\x8000000000000000';

export interface ResponseTimesFilter {
  organizationId: string;
  groupId?: string | undefined;
  /** One wearer's alerts. */
  wearerId?: string | undefined;
  /** Start of the first month and end of the last (excluded). */
  start: Date;
  stop: Date;
}

// One value per alert, NULL kept in place (string_agg would skip it and misalign the columns).
const packed = (col: string) =>
  `encode(string_agg(COALESCE(timestamptz_send(${col}), '${NULL_INSTANT}'::bytea), ''::bytea), 'base64')`;

export function responseTimesRepository(db: Queryable) {
  return {
    /** The starts of `months` local months from `fromMonth` (YYYY-MM) in `timeZone`, and the end of the last. */
    async monthStarts(timeZone: string, fromMonth: string, months: number): Promise<Date[]> {
      const rows = await db.query<{ start: Date | string }>(
        `SELECT (($1 || '-01')::timestamp + k * interval '1 month') AT TIME ZONE $2 AS start
       FROM generate_series(0, $3::int) k ORDER BY k`,
        [fromMonth, timeZone, months],
      );
      return rows.map((r) => new Date(r.start));
    },

    /**
     * The times of the alerts raised in the period, per type, for exact percentiles in TypeScript: one pass over the
     * covering index alerts_response_times_idx, no arithmetic, no sort, no text per value (computing the seconds,
     * the local month and 12 percentile sorts in SQL cost ~550 ms of PGlite at 100,000 alerts). The caller's scope
     * as for the alert list (a group manager counts the alerts of their groups, then or now).
     */
    async responseTimesByType(
      actor: Actor,
      f: ResponseTimesFilter,
    ): Promise<ResponseTimesTypeDb[]> {
      const p = new SqlParams();
      const org = p.add(f.organizationId);
      const scope = wearerScope(actor, p, { organizationId: f.organizationId }, 'u', [
        'u.group_id',
        'a.group_id',
      ]);
      const group = f.groupId === undefined ? '' : `AND a.group_id = ${p.add(f.groupId)}`;
      const wearer = f.wearerId === undefined ? '' : `AND a.wearer_id = ${p.add(f.wearerId)}`;
      return db.query<ResponseTimesTypeDb>(
        `SELECT a.type, ${packed('a.opened_at')} AS opened_at, ${packed('a.created_at')} AS raised_at,
            ${packed('a.first_notice_at')} AS first_notice_at,
            ${packed('a.first_delivery_at')} AS first_delivery_at, ${packed('a.confirmed_at')} AS confirmed_at
       FROM alerts a
       JOIN users u ON u.id = a.wearer_id
      WHERE a.organization_id = ${org} AND a.opened_at >= ${p.add(f.start)} AND a.opened_at < ${p.add(f.stop)}
        AND ${scope} ${group} ${wearer}
      GROUP BY a.type`,
        p.values,
      );
    },
  };
}
