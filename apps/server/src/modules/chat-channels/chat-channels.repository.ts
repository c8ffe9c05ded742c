import type { ChatLinkKind, ConfigurableChannel } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface ChatChannelRow {
  organization_id: string;
  kind: ConfigurableChannel;
  settings: Record<string, string>;
  secrets_sealed: string;
  secret_hints: Record<string, string>;
  updated_at: Date | string;
}

export interface ChatLinkRow {
  kind: ChatLinkKind;
  chat_user_id: string;
  created_at: Date | string;
}

/** The chat channels, the links of console accounts to chat users, link codes and callbacks seen. */
export function chatChannelsRepository(db: Queryable) {
  return {
    list: (organizationId: string) =>
      db.query<ChatChannelRow>(
        `SELECT organization_id, kind, settings, secrets_sealed, secret_hints, updated_at
           FROM chat_channels WHERE organization_id = $1 ORDER BY kind`,
        [organizationId],
      ),

    async find(
      organizationId: string,
      kind: ConfigurableChannel,
    ): Promise<ChatChannelRow | undefined> {
      const [row] = await db.query<ChatChannelRow>(
        `SELECT organization_id, kind, settings, secrets_sealed, secret_hints, updated_at
           FROM chat_channels WHERE organization_id = $1 AND kind = $2`,
        [organizationId, kind],
      );
      return row;
    },

    async save(
      r: {
        organizationId: string;
        kind: ConfigurableChannel;
        settings: Record<string, string>;
        secretsSealed: string;
        secretHints: Record<string, string>;
        userId: string;
      },
      now: Date,
    ): Promise<void> {
      await db.query(
        `INSERT INTO chat_channels (organization_id, kind, settings, secrets_sealed, secret_hints, updated_at, updated_by)
         VALUES ($1, $2, $3::jsonb, $4, $5::jsonb, $6, $7)
         ON CONFLICT (organization_id, kind) DO UPDATE SET settings = EXCLUDED.settings,
           secrets_sealed = EXCLUDED.secrets_sealed, secret_hints = EXCLUDED.secret_hints,
           updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
        [
          r.organizationId,
          r.kind,
          JSON.stringify(r.settings),
          r.secretsSealed,
          JSON.stringify(r.secretHints),
          now,
          r.userId,
        ],
      );
    },

    async remove(organizationId: string, kind: ConfigurableChannel): Promise<boolean> {
      const rows = await db.query<{ kind: string }>(
        'DELETE FROM chat_channels WHERE organization_id = $1 AND kind = $2 RETURNING kind',
        [organizationId, kind],
      );
      return rows.length > 0;
    },

    /** The console account a chat user is linked to in the organisation (a staff member not removed). */
    async linkedUser(
      organizationId: string,
      kind: ChatLinkKind,
      chatUserId: string,
    ): Promise<string | undefined> {
      const [row] = await db.query<{ user_id: string }>(
        `SELECT l.user_id FROM chat_user_links l
           JOIN users u ON u.id = l.user_id AND u.deleted_at IS NULL
            -- A family member (LINE) belongs to no organisation: their link is to the wearer's.
            AND (l.kind = 'LINE' OR u.organization_id = l.organization_id)
          WHERE l.organization_id = $1 AND l.kind = $2 AND l.chat_user_id = $3`,
        [organizationId, kind, chatUserId],
      );
      return row?.user_id;
    },

    /** The chat user linked to the account in the organisation on that service. */
    async linkOf(
      organizationId: string,
      kind: ChatLinkKind,
      userId: string,
    ): Promise<string | undefined> {
      const [row] = await db.query<{ chat_user_id: string }>(
        'SELECT chat_user_id FROM chat_user_links WHERE organization_id = $1 AND kind = $2 AND user_id = $3',
        [organizationId, kind, userId],
      );
      return row?.chat_user_id;
    },

    /** The LINE messages pushed by the organisation since `start` (a test's validation is not one). */
    async lineMessagesSince(organizationId: string, start: Date): Promise<number> {
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notifications
          WHERE organization_id = $1 AND channel = 'LINE' AND created_at >= $2
            AND status IN ('sent','delivered') AND recipient IS DISTINCT FROM 'chat:LINE'`,
        [organizationId, start],
      );
      return row?.n ?? 0;
    },

    /** Records the family member's 見ました on their LINE notice (once); false when it is not theirs. */
    async markSeen(notificationId: string, userId: string, now: Date): Promise<boolean> {
      const rows = await db.query<{ id: string }>(
        `UPDATE notifications SET seen_at = COALESCE(seen_at, $3)
          WHERE id = $1 AND user_id = $2 AND channel = 'LINE' RETURNING id`,
        [notificationId, userId, now],
      );
      return rows.length > 0;
    },

    linksOf: (userId: string) =>
      db.query<ChatLinkRow>(
        'SELECT kind, chat_user_id, created_at FROM chat_user_links WHERE user_id = $1 ORDER BY kind',
        [userId],
      ),

    /** Links the chat user to the account: any earlier link of either side on that service is replaced. */
    async link(
      organizationId: string,
      kind: ChatLinkKind,
      chatUserId: string,
      userId: string,
      now: Date,
    ): Promise<void> {
      await db.query(
        `DELETE FROM chat_user_links WHERE kind = $2 AND (user_id = $4 OR (organization_id = $1 AND chat_user_id = $3))`,
        [organizationId, kind, chatUserId, userId],
      );
      await db.query(
        `INSERT INTO chat_user_links (organization_id, kind, chat_user_id, user_id, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [organizationId, kind, chatUserId, userId, now],
      );
    },

    async unlink(userId: string, kind: ChatLinkKind): Promise<string | undefined> {
      const [row] = await db.query<{ chat_user_id: string }>(
        'DELETE FROM chat_user_links WHERE user_id = $1 AND kind = $2 RETURNING chat_user_id',
        [userId, kind],
      );
      return row?.chat_user_id;
    },

    async insertCode(
      codeHash: string,
      userId: string,
      organizationId: string,
      expiresAt: Date,
      now: Date,
    ): Promise<void> {
      // One live code per person: a new one voids the earlier.
      await db.query('DELETE FROM chat_link_codes WHERE user_id = $1', [userId]);
      await db.query(
        `INSERT INTO chat_link_codes (code_hash, user_id, organization_id, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [codeHash, userId, organizationId, expiresAt, now],
      );
    },

    /** Uses a live code of the organisation once: its account, or undefined. */
    async takeCode(
      codeHash: string,
      organizationId: string,
      now: Date,
    ): Promise<string | undefined> {
      const [row] = await db.query<{ user_id: string }>(
        `UPDATE chat_link_codes SET used_at = $3
          WHERE code_hash = $1 AND organization_id = $2 AND used_at IS NULL AND expires_at > $3
          RETURNING user_id`,
        [codeHash, organizationId, now],
      );
      return row?.user_id;
    },

    /** Records a callback; false when the same signed body was handled already (a replay). */
    async firstSight(bodyHash: string, now: Date): Promise<boolean> {
      const rows = await db.query<{ body_hash: string }>(
        `INSERT INTO chat_callbacks_seen (body_hash, seen_at) VALUES ($1, $2)
         ON CONFLICT (body_hash) DO NOTHING RETURNING body_hash`,
        [bodyHash, now],
      );
      return rows.length > 0;
    },
  };
}
