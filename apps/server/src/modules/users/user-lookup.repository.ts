import type { UserLookupRow } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export function userLookupRepository(db: Queryable) {
  return {
    /** Every living console account (wearers without sign-in are not users), matched on name, address or number. */
    async lookupUsers(q: string | undefined, limit: number, offset: number) {
      const rows = await db.query<UserLookupRow & { total: number }>(
        `WITH hit AS (
       SELECT u.id, u.name, u.email, u.phone_number, u.role, u.organization_id, count(*) OVER ()::int AS total
         FROM users u
        WHERE u.deleted_at IS NULL AND u.role IS NOT NULL
          AND ($1::text IS NULL OR strpos(lower(u.name), lower($1)) > 0 OR strpos(coalesce(u.email, ''), lower($1)) > 0
               OR strpos(coalesce(u.phone_number, ''), $1) > 0)
        ORDER BY u.name, u.id
        LIMIT $2 OFFSET $3)
     SELECT h.id AS uid, h.name, h.email, h.phone_number AS "phoneNumber", h.role, h.total,
            o.id AS "clientId", o.name AS "organizationName"
       FROM hit h
       LEFT JOIN LATERAL (
         SELECT o.id, o.name FROM organizations o
          WHERE o.id = coalesce(h.organization_id,
                  (SELECT w.organization_id FROM user_links l JOIN users w ON w.id = l.wearer_id
                    WHERE l.user_id = h.id ORDER BY l.created_at, w.id LIMIT 1))) o ON true
      ORDER BY h.name, h.id`,
        [q || null, limit, offset],
      );
      let total = rows[0]?.total ?? 0;
      if (!rows.length && offset > 0) {
        const [count] = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM users u WHERE u.deleted_at IS NULL AND u.role IS NOT NULL
          AND ($1::text IS NULL OR strpos(lower(u.name), lower($1)) > 0 OR strpos(coalesce(u.email, ''), lower($1)) > 0
               OR strpos(coalesce(u.phone_number, ''), $1) > 0)`,
          [q || null],
        );
        total = count?.n ?? 0;
      }
      return { users: rows.map(({ total: _, ...u }) => u), total };
    },
  };
}
