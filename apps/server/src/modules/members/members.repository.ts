import type { Member } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

/** A live staff member of an organisation (the rows the members calls act on). */
const STAFF = `u.deleted_at IS NULL AND u.role IN ('ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP')`;
const MEMBER_COLUMNS = `u.id AS uid, u.name, u.email AS mail, u.role,
  COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY g.name, g.id)
              FROM group_managers gm JOIN groups g ON g.id = gm.group_id
             WHERE gm.user_id = u.id), '[]'::json) AS groups`;

export function membersRepository(db: Queryable) {
  return {
    /**
     * One page of the organisation's staff by name, with the groups each manages and the number matching
     * `q` (in name or address). The partial index users_staff_name_idx keeps this off the wearers' rows.
     */
    async listStaff(organizationId: string, q: string | undefined, limit: number, offset: number) {
      // The page first (names only, on the partial index), then the groups of just those rows.
      const rows = await db.query<Member & { total: number }>(
        `WITH page AS (
           SELECT u.id, u.name, u.email, u.role, count(*) OVER ()::int AS total
             FROM users u
            WHERE u.organization_id = $1 AND ${STAFF}
              AND ($2::text IS NULL OR strpos(lower(u.name), lower($2)) > 0 OR strpos(u.email, lower($2)) > 0)
            ORDER BY u.name, u.id
            LIMIT $3 OFFSET $4)
         SELECT p.id AS uid, p.name, p.email AS mail, p.role, p.total,
                COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY g.name, g.id)
                            FROM group_managers gm JOIN groups g ON g.id = gm.group_id
                           WHERE gm.user_id = p.id), '[]'::json) AS groups
           FROM page p ORDER BY p.name, p.id`,
        [organizationId, q || null, limit, offset],
      );
      const total = rows[0]?.total ?? (offset > 0 ? await this.countStaff(organizationId, q) : 0);
      return { members: rows.map(({ total: _, ...m }) => m), total };
    },

    async countStaff(organizationId: string, q: string | undefined): Promise<number> {
      const rows = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users u WHERE u.organization_id = $1 AND ${STAFF}
            AND ($2::text IS NULL OR strpos(lower(u.name), lower($2)) > 0 OR strpos(u.email, lower($2)) > 0)`,
        [organizationId, q || null],
      );
      return rows[0]?.n ?? 0;
    },

    async findStaff(uid: string): Promise<(Member & { organizationId: string }) | null> {
      const rows = await db.query<Member & { organizationId: string }>(
        `SELECT ${MEMBER_COLUMNS}, u.organization_id AS "organizationId" FROM users u WHERE u.id = $1 AND ${STAFF}`,
        [uid],
      );
      return rows[0] ?? null;
    },

    /**
     * Holds the organisation's row until the transaction ends, so two changes to its owners (two
     * demotions, a demotion and a removal) run one after the other and the last-owner check sees both.
     */
    async lockOrganization(organizationId: string): Promise<void> {
      await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
    },

    async countOwners(organizationId: string): Promise<number> {
      const rows = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users u WHERE u.organization_id = $1 AND ${STAFF} AND u.role = 'ORGANIZATION_OWNER'`,
        [organizationId],
      );
      return rows[0]?.n ?? 0;
    },

    async setRole(uid: string, role: string): Promise<void> {
      await db.query(`UPDATE users u SET role = $2 WHERE u.id = $1 AND ${STAFF}`, [uid, role]);
    },

    /** Whether the staff member is a group manager (only they have groups). */
    async isGroupManager(uid: string): Promise<boolean> {
      const rows = await db.query(
        `SELECT 1 FROM users u WHERE u.id = $1 AND ${STAFF} AND u.role = 'ORGANIZATION_GROUP'`,
        [uid],
      );
      return rows.length > 0;
    },

    async replaceManagedGroups(uid: string, groupIds: string[]): Promise<void> {
      await db.query(
        'DELETE FROM group_managers WHERE user_id = $1 AND NOT (group_id = ANY($2::text[]))',
        [uid, groupIds],
      );
      await this.addManagedGroups(uid, groupIds);
    },

    async addManagedGroups(uid: string, groupIds: string[]): Promise<void> {
      await db.query(
        `INSERT INTO group_managers (group_id, user_id) SELECT unnest($2::text[]), $1 ON CONFLICT DO NOTHING`,
        [uid, groupIds],
      );
    },

    /** Removes one group; answers how many the manager still has. */
    async removeManagedGroup(uid: string, groupId: string): Promise<number> {
      await db.query('DELETE FROM group_managers WHERE user_id = $1 AND group_id = $2', [
        uid,
        groupId,
      ]);
      const rows = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM group_managers WHERE user_id = $1',
        [uid],
      );
      return rows[0]?.n ?? 0;
    },

    /**
     * Removes a person from the console: the row stays (their confirmations and the organisation's records
     * keep their name), every session ends now (refresh tokens revoked: the next request of an access token
     * is refused), and they manage no group any more.
     */
    async removeStaff(uid: string, at: Date): Promise<void> {
      await db.query(`UPDATE users u SET deleted_at = $2 WHERE u.id = $1 AND ${STAFF}`, [uid, at]);
      await db.query(
        'UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL',
        [uid, at],
      );
      await db.query('DELETE FROM group_managers WHERE user_id = $1', [uid]);
    },
  };
}
