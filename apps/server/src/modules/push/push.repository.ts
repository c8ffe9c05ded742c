import type { Queryable } from '../../db/client.js';

export interface PushSubscriptionRow {
  id: string;
  user_id: string;
  session_id: string | null;
  endpoint_sealed: string;
  p256dh: string;
  auth_sealed: string;
  user_agent: string | null;
  created_at: Date | string;
  last_pushed_at: Date | string | null;
}

export interface NewPushSubscription {
  id: string;
  userId: string;
  sessionId: string | null;
  endpointHash: string;
  endpointSealed: string;
  p256dh: string;
  authSealed: string;
  userAgent: string | null;
}

const COLUMNS = `id, user_id, session_id, endpoint_sealed, p256dh, auth_sealed, user_agent, created_at, last_pushed_at`;

export function pushRepository(db: Queryable) {
  return {
    /**
     * The subscriptions pushes go to: the person is still in the console and the session that subscribed was
     * not signed out (revoked). An expired session keeps its browser subscribed: a locked phone overnight is
     * the case push is for, and 確認 asks for a sign-in then.
     */
    async liveOfUser(userId: string): Promise<PushSubscriptionRow[]> {
      return db.query<PushSubscriptionRow>(
        `SELECT ${COLUMNS.split(', ')
          .map((c) => `s.${c}`)
          .join(', ')}
           FROM push_subscriptions s JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
          WHERE s.user_id = $1
            AND NOT EXISTS (SELECT 1 FROM refresh_tokens t
                             WHERE t.family_id = s.session_id AND t.revoked_at IS NOT NULL)
          ORDER BY s.created_at, s.id`,
        [userId],
      );
    },

    /** A new subscription, or the same browser's again (its endpoint): the row is the caller's now. */
    async upsert(s: NewPushSubscription, at: Date): Promise<PushSubscriptionRow> {
      const rows = await db.query<PushSubscriptionRow>(
        `INSERT INTO push_subscriptions
           (id, user_id, session_id, endpoint_hash, endpoint_sealed, p256dh, auth_sealed, user_agent, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (endpoint_hash) DO UPDATE SET user_id = EXCLUDED.user_id, session_id = EXCLUDED.session_id,
           endpoint_sealed = EXCLUDED.endpoint_sealed, p256dh = EXCLUDED.p256dh, auth_sealed = EXCLUDED.auth_sealed,
           user_agent = EXCLUDED.user_agent, created_at = EXCLUDED.created_at, last_pushed_at = NULL
         RETURNING ${COLUMNS}`,
        [
          s.id,
          s.userId,
          s.sessionId,
          s.endpointHash,
          s.endpointSealed,
          s.p256dh,
          s.authSealed,
          s.userAgent,
          at,
        ],
      );
      const row = rows[0];
      if (!row) throw new Error('push subscription upsert returned no row');
      return row;
    },

    /** Removes one of the person's subscriptions; false when it is not theirs (or gone). */
    async removeOwn(userId: string, id: string): Promise<boolean> {
      const rows = await db.query(
        'DELETE FROM push_subscriptions WHERE id = $1 AND user_id = $2 RETURNING id',
        [id, userId],
      );
      return rows.length > 0;
    },

    /** The push service said the subscription is gone (404/410, RFC 8030 §7.3). */
    async remove(id: string): Promise<void> {
      await db.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
    },

    async markPushed(id: string, at: Date): Promise<void> {
      await db.query('UPDATE push_subscriptions SET last_pushed_at = $2 WHERE id = $1', [id, at]);
    },
  };
}
