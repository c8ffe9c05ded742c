import type { FamilyNoticeChannel, FamilyNoticeView } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

/** A family member who chose to be told of a wearer's alerts, with where to. */
export interface FamilyRecipientRow {
  user_id: string;
  name: string;
  phone_number: string | null;
  email: string | null;
  locale: 'ja' | 'en';
  channel: FamilyNoticeChannel;
}

export function familyNoticesRepository(db: Queryable) {
  return {
    /** The given linked wearers of a family member, by name, with their choice (null: not told). */
    async listOf(userId: string, wearerIds: readonly string[]): Promise<FamilyNoticeView[]> {
      if (!wearerIds.length) return [];
      return db.query<FamilyNoticeView>(
        `SELECT w.id AS uid, w.name, p.channel
           FROM user_links ul
           JOIN users w ON w.id = ul.wearer_id AND w.deleted_at IS NULL
           LEFT JOIN family_notice_preferences p ON p.user_id = ul.user_id AND p.wearer_id = ul.wearer_id
          WHERE ul.user_id = $1 AND ul.wearer_id = ANY($2::text[])
          ORDER BY w.name, w.id`,
        [userId, [...wearerIds]],
      );
    },

    async contactOf(
      userId: string,
    ): Promise<{ phone_number: string | null; email: string | null; push_subscriptions: number }> {
      // The push subscriptions are counted, not read: they are the push module's (migration 053).
      const [row] = await db.query<{
        phone_number: string | null;
        email: string | null;
        push_subscriptions: number;
      }>(
        `SELECT u.phone_number, u.email,
                (SELECT count(*)::int FROM push_subscriptions p WHERE p.user_id = u.id) AS push_subscriptions
           FROM users u WHERE u.id = $1 AND u.deleted_at IS NULL`,
        [userId],
      );
      return row ?? { phone_number: null, email: null, push_subscriptions: 0 };
    },

    /** The LINE user linked to the family member in the organisation (chat_user_links, kind LINE). */
    async lineUserOf(userId: string, organizationId: string): Promise<string | undefined> {
      const [row] = await db.query<{ chat_user_id: string }>(
        `SELECT chat_user_id FROM chat_user_links
          WHERE user_id = $1 AND organization_id = $2 AND kind = 'LINE'`,
        [userId, organizationId],
      );
      return row?.chat_user_id;
    },

    /** Removes the family member's LINE link: where it was and to whom, or undefined. */
    async unlinkLine(
      userId: string,
    ): Promise<{ organization_id: string; chat_user_id: string } | undefined> {
      const [row] = await db.query<{ organization_id: string; chat_user_id: string }>(
        `DELETE FROM chat_user_links WHERE user_id = $1 AND kind = 'LINE'
         RETURNING organization_id, chat_user_id`,
        [userId],
      );
      return row;
    },

    async dropChannel(userId: string, channel: FamilyNoticeChannel): Promise<void> {
      await db.query('DELETE FROM family_notice_preferences WHERE user_id = $1 AND channel = $2', [
        userId,
        channel,
      ]);
    },

    /**
     * Stores the choice (null: removes it). Written only while the link exists (the foreign key on
     * user_links): false when there is no such link any more.
     */
    async save(
      userId: string,
      wearerId: string,
      organizationId: string,
      channel: FamilyNoticeChannel | null,
      now: Date,
    ): Promise<boolean> {
      const [link] = await db.query(
        'SELECT 1 FROM user_links WHERE user_id = $1 AND wearer_id = $2 FOR UPDATE',
        [userId, wearerId],
      );
      if (!link) return false;
      if (channel === null) {
        await db.query(
          'DELETE FROM family_notice_preferences WHERE user_id = $1 AND wearer_id = $2',
          [userId, wearerId],
        );
        return true;
      }
      await db.query(
        `INSERT INTO family_notice_preferences (user_id, wearer_id, organization_id, channel, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id, wearer_id)
         DO UPDATE SET channel = EXCLUDED.channel, organization_id = EXCLUDED.organization_id,
                       updated_at = EXCLUDED.updated_at`,
        [userId, wearerId, organizationId, channel, now],
      );
      return true;
    },

    /**
     * The family members told of this wearer's alerts: linked now, signed up as PERSONAL, not
     * deleted, and choosing a channel; the wearer's organisation only (a choice stored under
     * another organisation, after a move, is not used).
     */
    async recipientsOf(wearerId: string, organizationId: string): Promise<FamilyRecipientRow[]> {
      return db.query<FamilyRecipientRow>(
        `SELECT u.id AS user_id, u.name, u.phone_number, u.email, u.locale, p.channel
           FROM family_notice_preferences p
           JOIN user_links ul ON ul.user_id = p.user_id AND ul.wearer_id = p.wearer_id
           JOIN users u ON u.id = p.user_id AND u.deleted_at IS NULL AND u.role = 'PERSONAL'
          WHERE p.wearer_id = $1 AND p.organization_id = $2
          ORDER BY u.id`,
        [wearerId, organizationId],
      );
    },
  };
}
