import type { Queryable } from '../../db/client.js';

/**
 * SQL of a person's data on request (docs/privacy.md). It reads and deletes rows of many modules' tables by the
 * person's id: the one place that does, so that what "everything about a person" means is written once
 * (person-data.tables.ts lists the tables).
 */

export type Row = Record<string, unknown>;

export interface PersonRow {
  id: string;
  organization_id: string;
  name: string;
  deleted_at: Date | string | null;
}

/** A table read a page at a time, in a stable order, as the export streams it. */
export interface PagedSource {
  file: string;
  /** The SELECT without ORDER BY / LIMIT; $1 is the person's id. */
  sql: string;
  /** Its ordering columns (unique together): the page's last row continues the next page. */
  keys: string[];
}

/** Rows per page of the export. */
export const PAGE = 5000;

/** The files of rows, in the archive's order (PERSON_DATA_FILES). */
export const PAGED_SOURCES: PagedSource[] = [
  { file: 'devices.csv', sql: 'SELECT * FROM bracelets WHERE wearer_id = $1', keys: ['id'] },
  {
    file: 'device-assignments.csv',
    sql: 'SELECT * FROM bracelet_assignments WHERE wearer_id = $1',
    keys: ['bracelet_id', 'started_at'],
  },
  {
    file: 'readings.csv',
    sql: 'SELECT * FROM readings WHERE wearer_id = $1',
    keys: ['at', 'bracelet_id'],
  },
  {
    file: 'reading-minutes.csv',
    sql: 'SELECT * FROM reading_minutes WHERE wearer_id = $1',
    keys: ['bucket'],
  },
  {
    file: 'reading-hours.csv',
    sql: 'SELECT * FROM reading_hours WHERE wearer_id = $1',
    keys: ['bucket'],
  },
  {
    file: 'latest.csv',
    sql: 'SELECT * FROM wearer_latest WHERE wearer_id = $1',
    keys: ['wearer_id'],
  },
  {
    file: 'positions.csv',
    sql: 'SELECT * FROM wearer_positions WHERE wearer_id = $1',
    keys: ['at'],
  },
  {
    file: 'places.csv',
    sql: 'SELECT * FROM wearer_places WHERE wearer_id = $1',
    keys: ['wearer_id'],
  },
  {
    file: 'device-events.csv',
    sql: 'SELECT * FROM device_events WHERE wearer_id = $1',
    keys: ['at', 'id'],
  },
  {
    file: 'alerts.csv',
    sql: 'SELECT * FROM alerts WHERE wearer_id = $1',
    keys: ['opened_at', 'id'],
  },
  {
    // What was sent about them, not to whom: the recipients are staff members' own contacts.
    file: 'notifications.csv',
    sql: `SELECT * FROM (
            SELECT n.id, n.alert_id, n.step, n.channel, n.status, n.reason, n.text, n.created_at, n.sent_at,
                   n.delivered_at, n.failed_at
              FROM notifications n JOIN alerts a ON a.id = n.alert_id WHERE a.wearer_id = $1) t`,
    keys: ['created_at', 'id'],
  },
  {
    file: 'snoozes.csv',
    sql: 'SELECT * FROM alert_snoozes WHERE wearer_id = $1',
    keys: ['created_at', 'id'],
  },
  {
    file: 'night-round-marks.csv',
    sql: 'SELECT * FROM night_round_marks WHERE wearer_id = $1',
    keys: ['marked_at', 'id'],
  },
  {
    file: 'family-links.csv',
    sql: `SELECT * FROM (
            SELECT l.user_id AS family_user_id, u.name AS family_name, l.created_at AS linked_at,
                   p.channel AS notice_channel
              FROM user_links l JOIN users u ON u.id = l.user_id
              LEFT JOIN family_notice_preferences p ON p.user_id = l.user_id AND p.wearer_id = l.wearer_id
             WHERE l.wearer_id = $1) t`,
    keys: ['linked_at', 'family_user_id'],
  },
  {
    file: 'audit.csv',
    sql: 'SELECT id, at, actor_id, kind, target_id, before, after FROM audit_log WHERE target_id = $1',
    keys: ['at', 'id'],
  },
  {
    // Who read their data, when and from where (docs/access-log.md); the chain's hashes are not theirs.
    file: 'access-log.csv',
    sql: `SELECT * FROM (
            SELECT organization_id, seq, at, actor_id, api_token_id, what, ip
              FROM access_log WHERE $1 = ANY(person_ids)) t`,
    keys: ['organization_id', 'seq'],
  },
];

/** Columns never exported: secrets and their hashes. */
export const SECRET_COLUMN = /hash|secret|credential/;

/** The tables a wearer's erasure empties by `wearer_id` (no foreign key to users: docs/decisions/0005). */
const DELETED_BY_WEARER = [
  'readings',
  'reading_minutes',
  'reading_hours',
  'wearer_latest',
  'wearer_positions',
  'device_events',
  'rollup_pending',
] as const;

export function personDataRepository(db: Queryable) {
  return {
    /** A wearer (in the list or removed from it); staff and family accounts are not wearers. */
    async wearer(uid: string, lock = false): Promise<PersonRow | undefined> {
      const rows = await db.query<PersonRow>(
        `SELECT id, organization_id, name, deleted_at FROM users
          WHERE id = $1 AND organization_id IS NOT NULL AND (role IS NULL OR role = 'PERSONAL_SELF')
          ${lock ? 'FOR UPDATE' : ''}`,
        [uid],
      );
      return rows[0];
    },

    async profile(uid: string): Promise<Row> {
      const [user] = await db.query<Row>(
        // The birth date as written (a date, not an instant at UTC midnight).
        `SELECT u.*, to_char(u.birth_date, 'YYYY-MM-DD') AS birth_date, o.name AS organization_name, o.time_zone,
                g.name AS group_name
           FROM users u JOIN organizations o ON o.id = u.organization_id
           LEFT JOIN groups g ON g.id = u.group_id
          WHERE u.id = $1`,
        [uid],
      );
      const one = async (sql: string) => (await db.query<Row>(sql, [uid]))[0] ?? null;
      return {
        ...user,
        alertSettings: await one(
          'SELECT settings, updated_at FROM wearer_alert_settings WHERE wearer_id = $1',
        ),
        engineState: await one(
          'SELECT state, last_reading_at, updated_at FROM engine_state WHERE wearer_id = $1',
        ),
        termsAgreements: await db.query<Row>(
          'SELECT version, agreed_at FROM terms_agreements WHERE user_id = $1 ORDER BY agreed_at',
          [uid],
        ),
      };
    },

    /** One page of a source after `after` (the previous page's last row), in key order. */
    async page(source: PagedSource, uid: string, after: Row | null): Promise<Row[]> {
      const keys = source.keys.join(', ');
      const params: unknown[] = [uid];
      let where = '';
      if (after !== null) {
        const placeholders = source.keys.map((k) => {
          params.push(after[k]);
          return `$${params.length}`;
        });
        where = `WHERE (${keys}) > (${placeholders.join(', ')})`;
      }
      return db.query<Row>(
        `SELECT * FROM (${source.sql}) s ${where} ORDER BY ${keys} LIMIT ${PAGE}`,
        params,
      );
    },

    /**
     * Erases a wearer (person-data.tables.ts): their telemetry by wearer id, the webhook events that name them,
     * the audit log's data about them (entries that target them or carry their id or full name; the entries stay), then their users row, which takes the rest with it.
     * Returns how many rows each step removed, for the audit entry.
     */
    async erase(uid: string, name: string): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      const count = async (label: string, sql: string) => {
        const [row] = await db.query<{ n: number }>(
          `WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`,
          sql.includes('$2') ? [uid, name] : [uid],
        );
        counts[label] = row?.n ?? 0;
      };
      for (const table of DELETED_BY_WEARER)
        await count(table, `DELETE FROM ${table} WHERE wearer_id = $1`);
      await count('alerts', 'DELETE FROM alerts WHERE wearer_id = $1');
      // A webhook event's payload is JSON text naming the wearer by id (and name); its deliveries cascade.
      await count('webhook_events', 'DELETE FROM webhook_events WHERE strpos(payload, $1) > 0');
      await count(
        'audit_log',
        `UPDATE audit_log SET before = NULL, after = NULL
          WHERE (before IS NOT NULL OR after IS NOT NULL)
            AND (target_id = $1
                 OR strpos(coalesce(before::text, '') || coalesce(after::text, ''), $1) > 0
                 OR strpos(coalesce(before::text, '') || coalesce(after::text, ''), $2) > 0)`,
      );
      await count('users', 'DELETE FROM users WHERE id = $1');
      return counts;
    },
  };
}
