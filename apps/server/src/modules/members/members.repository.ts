import type { Member } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export function membersRepository(db: Queryable) {
  return {
    /** The organisation's staff with the groups each manages. */
    async listStaff(organizationId: string): Promise<Member[]> {
      return db.query<Member>(
        `SELECT u.id AS uid, u.name, u.email AS mail, u.role,
                COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY g.name)
                            FROM group_managers gm JOIN groups g ON g.id = gm.group_id
                           WHERE gm.user_id = u.id), '[]'::json) AS groups
           FROM users u
          WHERE u.organization_id = $1 AND u.deleted_at IS NULL
            AND u.role IN ('ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP')`,
        [organizationId],
      );
    },
  };
}
