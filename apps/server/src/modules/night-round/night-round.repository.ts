import type { AlertLevel, AlertType, RoundMarkView } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { IS_WEARER } from '../../access/scope-sql.js';

export interface RoundGroupRow {
  id: string;
  name: string;
  organization_id: string;
  time_zone: string;
}

/** A resident of the group with their latest values, newest alert and open alerts' levels. */
export interface RoundWearerRow {
  uid: string;
  name: string;
  name_reading: string | null;
  heart_rate: number | null;
  heart_rate_at: Date | null;
  worn: boolean | null;
  sleep_stage: number | null;
  last_seen_at: Date | null;
  last_alert_id: string | null;
  last_alert_type: AlertType | null;
  last_alert_level: AlertLevel | null;
  last_alert_status: 'OPEN' | 'CLOSED' | null;
  last_alert_opened_at: Date | null;
  open_levels: AlertLevel[] | null;
}

export interface RoundMinuteRow {
  wearer_id: string;
  bucket: Date;
  sleep_stage: number | null;
  worn: boolean | null;
  steps: number;
}

interface MarkRow {
  id: string;
  wearer_id: string;
  night: string;
  marked_at: Date;
  marked_by: string | null;
  marked_by_name: string;
  note: string | null;
}

const markView = (r: MarkRow): RoundMarkView => ({
  id: r.id,
  uid: r.wearer_id,
  night: r.night,
  at: new Date(r.marked_at).toISOString(),
  by: { uid: r.marked_by ?? '', name: r.marked_by_name },
  note: r.note,
});

const MARK_COLUMNS = `id, wearer_id, to_char(night, 'YYYY-MM-DD') AS night, marked_at, marked_by, marked_by_name, note`;

/** The night round's reads (residents, their minutes, marks) and its one write (a mark). */
export function nightRoundRepository(db: Queryable) {
  return {
    async group(groupId: string): Promise<RoundGroupRow | undefined> {
      const [row] = await db.query<RoundGroupRow>(
        `SELECT g.id, g.name, g.organization_id, o.time_zone
           FROM groups g JOIN organizations o ON o.id = g.organization_id
          WHERE g.id = $1`,
        [groupId],
      );
      return row;
    },

    async wearers(groupId: string): Promise<RoundWearerRow[]> {
      return db.query<RoundWearerRow>(
        `SELECT u.id AS uid, u.name, u.name_reading, l.heart_rate, l.heart_rate_at, l.worn, l.sleep_stage,
                l.last_seen_at, la.id AS last_alert_id, la.type AS last_alert_type, la.level AS last_alert_level,
                la.status AS last_alert_status, la.opened_at AS last_alert_opened_at, oa.levels AS open_levels
           FROM users u
           LEFT JOIN wearer_latest l ON l.wearer_id = u.id
           LEFT JOIN LATERAL (
             SELECT a.id, a.type, a.level, a.status, a.opened_at FROM alerts a
              WHERE a.wearer_id = u.id ORDER BY a.opened_at DESC, a.id DESC LIMIT 1
           ) la ON true
           LEFT JOIN LATERAL (
             SELECT array_agg(a.level) AS levels FROM alerts a WHERE a.wearer_id = u.id AND a.status = 'OPEN'
           ) oa ON true
          WHERE u.group_id = $1 AND ${IS_WEARER('u')}`,
        [groupId],
      );
    },

    /** The minute rollups of the residents since `from`: what each minute said of worn, sleep and steps. */
    async minutes(wearerIds: string[], from: Date): Promise<RoundMinuteRow[]> {
      if (wearerIds.length === 0) return [];
      return db.query<RoundMinuteRow>(
        `SELECT wearer_id, bucket, sleep_stage, steps,
                CASE WHEN worn_count > 0 THEN true WHEN not_worn_count > 0 THEN false END AS worn
           FROM reading_minutes
          WHERE wearer_id = ANY($1::text[]) AND bucket >= $2`,
        [wearerIds, from],
      );
    },

    async marks(groupId: string, night: string): Promise<RoundMarkView[]> {
      const rows = await db.query<MarkRow>(
        `SELECT ${MARK_COLUMNS} FROM night_round_marks
          WHERE group_id = $1 AND night = $2::date ORDER BY marked_at DESC, id DESC`,
        [groupId, night],
      );
      return rows.map(markView);
    },

    async addMark(mark: {
      id: string;
      organizationId: string;
      groupId: string;
      wearerId: string;
      night: string;
      by: string;
      at: Date;
      note: string | null;
    }): Promise<RoundMarkView> {
      const [row] = await db.query<MarkRow>(
        `INSERT INTO night_round_marks (id, organization_id, group_id, wearer_id, night, marked_by, marked_by_name,
                                        marked_at, note)
         SELECT $1, $2, $3, $4, $5::date, u.id, u.name, $7, $8 FROM users u WHERE u.id = $6
         RETURNING ${MARK_COLUMNS}`,
        [
          mark.id,
          mark.organizationId,
          mark.groupId,
          mark.wearerId,
          mark.night,
          mark.by,
          mark.at,
          mark.note,
        ],
      );
      return markView(row!);
    },
  };
}
