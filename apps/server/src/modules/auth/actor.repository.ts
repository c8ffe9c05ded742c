import type { Actor, Role } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

interface ActorRow {
  uid: string;
  role: Role;
  organizationId: string | null;
  managedGroupIds: string[] | null;
  linkedWearerIds: string[] | null;
}

const toActor = (r: ActorRow): Actor => ({
  uid: r.uid,
  role: r.role,
  organizationId: r.organizationId,
  managedGroupIds: r.managedGroupIds ?? [],
  linkedWearerIds: r.linkedWearerIds ?? [],
});

// One round trip per request: the user, their groups, their wearers and whether the session lives.
const ACTOR_COLUMNS = `
  u.id AS uid, u.role, u.organization_id AS "organizationId",
  (SELECT array_agg(gm.group_id ORDER BY gm.group_id) FROM group_managers gm
    WHERE gm.user_id = u.id) AS "managedGroupIds",
  (SELECT array_agg(ul.wearer_id ORDER BY ul.wearer_id) FROM user_links ul
     JOIN users w ON w.id = ul.wearer_id AND w.deleted_at IS NULL
    WHERE ul.user_id = u.id) AS "linkedWearerIds"`;

export function actorRepository(db: Queryable) {
  return {
    /** The actor of a live session: the user exists, is not deleted and the session is not revoked. */
    async findSessionActor(uid: string, sessionId: string, now: Date): Promise<Actor | null> {
      const rows = await db.query<ActorRow>(
        `SELECT ${ACTOR_COLUMNS} FROM users u
          WHERE u.id = $1 AND u.deleted_at IS NULL AND u.role IS NOT NULL
            AND EXISTS (SELECT 1 FROM refresh_tokens rt
                         WHERE rt.family_id = $2 AND rt.user_id = u.id
                           AND rt.revoked_at IS NULL AND rt.expires_at > $3)`,
        [uid, sessionId, now],
      );
      const row = rows[0];
      return row ? toActor(row) : null;
    },

    /** Which of these sessions still live: not revoked or expired, and the user not removed. */
    async findLiveSessions(sessionIds: string[], now: Date): Promise<Set<string>> {
      const rows = await db.query<{ familyId: string }>(
        `SELECT DISTINCT rt.family_id AS "familyId" FROM refresh_tokens rt
           JOIN users u ON u.id = rt.user_id AND u.deleted_at IS NULL AND u.role IS NOT NULL
          WHERE rt.family_id = ANY($1::text[]) AND rt.revoked_at IS NULL AND rt.expires_at > $2`,
        [sessionIds, now],
      );
      return new Set(rows.map((r) => r.familyId));
    },

    /**
     * A person as an actor without a session: a 確認 pressed in a chat confirms as the console account
     * linked to the chat user (modules/chat-channels), with that account's role and scope now.
     */
    async findUserActor(uid: string): Promise<Actor | null> {
      const rows = await db.query<ActorRow>(
        `SELECT ${ACTOR_COLUMNS} FROM users u
          WHERE u.id = $1 AND u.deleted_at IS NULL AND u.role IS NOT NULL`,
        [uid],
      );
      const row = rows[0];
      return row ? toActor(row) : null;
    },

    /** The demo organisation's first owner, whom every demo request acts as. */
    async findDemoOwner(): Promise<Actor | null> {
      const rows = await db.query<ActorRow>(
        `SELECT ${ACTOR_COLUMNS} FROM users u
           JOIN organizations o ON o.id = u.organization_id AND o.is_demo
          WHERE u.role = 'ORGANIZATION_OWNER' AND u.deleted_at IS NULL
          ORDER BY o.created_at, o.id, u.created_at, u.id LIMIT 1`,
      );
      const row = rows[0];
      return row ? toActor(row) : null;
    },
  };
}
