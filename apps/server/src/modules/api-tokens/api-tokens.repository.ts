import type { Actor, ApiTokenView, Permission, Role } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

interface TokenRow {
  id: string;
  name: string;
  scopes: Permission[];
  created_at: Date | string;
  expires_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const toView = (r: TokenRow): ApiTokenView => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
  lastUsedAt: iso(r.last_used_at),
  revokedAt: iso(r.revoked_at),
});

export interface TokenActor {
  actor: Actor;
  token: { id: string; name: string };
}

/** API tokens, stored by hash. */
export function apiTokensRepository(db: Queryable) {
  return {
    async insert(row: {
      id: string;
      userId: string;
      organizationId: string | null;
      name: string;
      tokenHash: string;
      scopes: string[];
      createdAt: Date;
      expiresAt: Date;
    }): Promise<ApiTokenView> {
      const [r] = await db.query<TokenRow>(
        `INSERT INTO api_tokens (id, user_id, organization_id, name, token_hash, scopes, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
         RETURNING id, name, scopes, created_at, expires_at, last_used_at, revoked_at`,
        [
          row.id,
          row.userId,
          row.organizationId,
          row.name,
          row.tokenHash,
          JSON.stringify(row.scopes),
          row.createdAt,
          row.expiresAt,
        ],
      );
      return toView(r!);
    },

    async listOf(userId: string): Promise<ApiTokenView[]> {
      const rows = await db.query<TokenRow>(
        `SELECT id, name, scopes, created_at, expires_at, last_used_at, revoked_at
           FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id`,
        [userId],
      );
      return rows.map(toView);
    },

    /** Revokes the owner's token; the row as it was (null: not theirs or unknown). */
    async revoke(userId: string, tokenId: string, at: Date): Promise<ApiTokenView | null> {
      const [r] = await db.query<TokenRow>(
        `UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, $3)
          WHERE id = $1 AND user_id = $2
          RETURNING id, name, scopes, created_at, expires_at, last_used_at, revoked_at`,
        [tokenId, userId, at],
      );
      return r ? toView(r) : null;
    },

    /** The actor of a live token: not revoked, not expired, its owner still a staff member. */
    async findTokenActor(tokenHash: string, now: Date): Promise<TokenActor | null> {
      const [r] = await db.query<{
        id: string;
        name: string;
        scopes: string[];
        uid: string;
        role: Role;
        organizationId: string | null;
        managedGroupIds: string[] | null;
      }>(
        `SELECT t.id, t.name, t.scopes, u.id AS uid, u.role, u.organization_id AS "organizationId",
                (SELECT array_agg(gm.group_id ORDER BY gm.group_id) FROM group_managers gm
                  WHERE gm.user_id = u.id) AS "managedGroupIds"
           FROM api_tokens t JOIN users u ON u.id = t.user_id
          WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2
            AND u.deleted_at IS NULL AND u.role IS NOT NULL`,
        [tokenHash, now],
      );
      if (!r) return null;
      return {
        token: { id: r.id, name: r.name },
        actor: {
          uid: r.uid,
          role: r.role,
          organizationId: r.organizationId,
          managedGroupIds: r.managedGroupIds ?? [],
          linkedWearerIds: [],
          scopes: r.scopes,
        },
      };
    },

    async touch(tokenId: string, at: Date): Promise<void> {
      await db.query('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1', [tokenId, at]);
    },
  };
}
