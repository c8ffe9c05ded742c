import type { Queryable } from '../../db/client.js';
import { IS_WEARER } from '../../access/scope-sql.js';

export interface GroupStateRow {
  id: string;
  organizationId: string;
  name: string;
  wearerCount: number;
  notWornCount: number;
  offlineCount: number;
}

/** A group's name is unique in its organisation (a unique index): false when it is taken. */
async function unlessNameTaken(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '23505') return false;
    throw err;
  }
}

export function groupsRepository(db: Queryable) {
  return {
    insert(row: { id: string; organizationId: string; name: string }, at: Date): Promise<boolean> {
      return unlessNameTaken(
        db.query(
          'INSERT INTO groups (id, organization_id, name, created_at) VALUES ($1, $2, $3, $4)',
          [row.id, row.organizationId, row.name, at],
        ),
      );
    },

    rename(id: string, name: string): Promise<boolean> {
      return unlessNameTaken(db.query('UPDATE groups SET name = $2 WHERE id = $1', [id, name]));
    },

    async find(id: string): Promise<{ id: string; organizationId: string; name: string } | null> {
      const rows = await db.query<{ id: string; organizationId: string; name: string }>(
        'SELECT id, organization_id AS "organizationId", name FROM groups WHERE id = $1',
        [id],
      );
      return rows[0] ?? null;
    },

    /** Deletes the group unless a wearer is in it (checked in the same statement, so no race leaves one orphaned). */
    async deleteIfEmpty(id: string): Promise<'deleted' | 'not-empty'> {
      const rows = await db.query(
        `DELETE FROM groups g WHERE g.id = $1
            AND NOT EXISTS (SELECT 1 FROM users u WHERE u.group_id = g.id AND ${IS_WEARER('u')})
         RETURNING g.id`,
        [id],
      );
      return rows.length ? 'deleted' : 'not-empty';
    },

    /**
     * Per group of the organisation: wearers, wearers whose latest reading says not worn, and
     * wearers without a reading within the connection window (3 duty cycles, at least 10 minutes).
     */
    async liveStates(organizationId: string, now: Date): Promise<GroupStateRow[]> {
      return db.query<GroupStateRow>(
        `SELECT g.id, g.organization_id AS "organizationId", g.name,
                count(u.id)::int AS "wearerCount",
                count(u.id) FILTER (WHERE l.worn = false)::int AS "notWornCount",
                count(u.id) FILTER (WHERE l.last_seen_at IS NULL OR l.last_seen_at < $2::timestamptz
                  - greatest(3 * COALESCE(b.heart_rate_duty_cycle, 1), 10) * interval '1 minute')::int AS "offlineCount"
           FROM groups g
           LEFT JOIN users u ON u.group_id = g.id AND ${IS_WEARER('u')}
           LEFT JOIN bracelets b ON b.wearer_id = u.id
           LEFT JOIN wearer_latest l ON l.wearer_id = u.id
          WHERE g.organization_id = $1
          GROUP BY g.id`,
        [organizationId, now],
      );
    },

    /** Open alerts per group of the wearer now. */
    async openAlertCounts(organizationId: string): Promise<Map<string, number>> {
      const rows = await db.query<{ groupId: string; n: number }>(
        `SELECT u.group_id AS "groupId", count(*)::int AS n
           FROM alerts a JOIN users u ON u.id = a.wearer_id
          WHERE a.organization_id = $1 AND a.status = 'OPEN' AND u.group_id IS NOT NULL AND u.deleted_at IS NULL
          GROUP BY u.group_id`,
        [organizationId],
      );
      return new Map(rows.map((r) => [r.groupId, r.n]));
    },

    async gatewayCounts(organizationId: string): Promise<Map<string, number>> {
      const rows = await db.query<{ groupId: string; n: number }>(
        `SELECT group_id AS "groupId", count(*)::int AS n FROM gateways
          WHERE organization_id = $1 AND group_id IS NOT NULL GROUP BY group_id`,
        [organizationId],
      );
      return new Map(rows.map((r) => [r.groupId, r.n]));
    },

    async moveWearers(uids: string[], groupId: string): Promise<number> {
      const rows = await db.query(
        `UPDATE users u SET group_id = $2 WHERE u.id = ANY($1::text[]) AND ${IS_WEARER('u')} RETURNING u.id`,
        [uids, groupId],
      );
      return rows.length;
    },
  };
}
