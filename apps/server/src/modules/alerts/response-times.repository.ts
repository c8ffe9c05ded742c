import type { Actor, AlertType } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { SqlParams, wearerScope } from '../../access/scope-sql.js';

export interface ResponseTimesRowDb {
  month: string | null;
  type: AlertType | null;
  alerts: number;
  notice_n: number;
  /** [median, p90], or null when no alert of the row has the measure. */
  notice_p: (number | null)[] | null;
  delivery_n: number;
  delivery_p: (number | null)[] | null;
  confirm_n: number;
  confirm_p: (number | null)[] | null;
}

export interface ResponseTimesFilter {
  organizationId: string;
  groupId?: string | undefined;
  timeZone: string;
  /** First and last month (YYYY-MM), both included, local to timeZone. */
  fromMonth: string;
  toMonth: string;
}

/** Seconds from raised to `col`; NULL stays NULL (GREATEST would make it 0), a clock skew below 0 counts as 0. */
const seconds = (col: string) =>
  `(CASE WHEN ${col} < a.opened_at THEN 0 ELSE extract(epoch FROM ${col} - a.opened_at)::float8 END)`;

// One ordered-set aggregate (one sort) gives both percentiles.
const figures = (col: string, name: string) =>
  `count(${col})::int AS ${name}_n, percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY ${col}) AS ${name}_p`;

/**
 * Median and 90th percentile of the seconds from raised to the first notice sent, to the first
 * delivered and to confirmation, per local month and alert type, with the totals (GROUPING SETS:
 * month x type, month, type, all). One statement; the caller's scope as for the alert list (a
 * group manager counts the alerts of their groups, then or now).
 */
export async function responseTimes(db: Queryable, actor: Actor, f: ResponseTimesFilter): Promise<ResponseTimesRowDb[]> {
  const p = new SqlParams();
  const tz = p.add(f.timeZone);
  const start = `(${p.add(f.fromMonth)} || '-01')::timestamp AT TIME ZONE ${tz}`;
  const stop = `((${p.add(f.toMonth)} || '-01')::timestamp + interval '1 month') AT TIME ZONE ${tz}`;
  const org = p.add(f.organizationId);
  const scope = wearerScope(actor, p, { organizationId: f.organizationId }, 'u', ['u.group_id', 'a.group_id']);
  const group = f.groupId === undefined ? '' : `AND a.group_id = ${p.add(f.groupId)}`;
  return db.query<ResponseTimesRowDb>(
    `WITH span AS (SELECT ${start} AS start, ${stop} AS stop),
     firsts AS (
       SELECT n.alert_id, min(n.sent_at) AS sent_at, min(n.delivered_at) AS delivered_at
         FROM notifications n, span
        WHERE n.organization_id = ${org} AND n.alert_id IS NOT NULL AND n.created_at >= span.start
        GROUP BY n.alert_id),
     timed AS (
       SELECT a.type, to_char(a.opened_at AT TIME ZONE ${tz}, 'YYYY-MM') AS month,
              ${seconds('f.sent_at')} AS to_notice,
              ${seconds('f.delivered_at')} AS to_delivery,
              ${seconds('a.confirmed_at')} AS to_confirm
         FROM span, alerts a
         JOIN users u ON u.id = a.wearer_id
         LEFT JOIN firsts f ON f.alert_id = a.id
        WHERE a.organization_id = ${org} AND a.opened_at >= span.start AND a.opened_at < span.stop
          AND ${scope} ${group})
     SELECT month, type, count(*)::int AS alerts,
            ${figures('to_notice', 'notice')},
            ${figures('to_delivery', 'delivery')},
            ${figures('to_confirm', 'confirm')}
       FROM timed
      GROUP BY GROUPING SETS ((month, type), (month), (type), ())
      ORDER BY month NULLS LAST, type NULLS FIRST`,
    p.values,
  );
}
