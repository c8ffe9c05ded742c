import type { MessageLocale, PendingInvitation, Role } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  organizationId: string | null;
  groupIds: string[];
  wearerId: string | null;
  name: string | null;
  locale: MessageLocale;
  invitedBy: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  replacedAt: Date | null;
}

export type NewInvitation = Omit<InvitationRow, 'usedAt' | 'replacedAt'> & {
  tokenHash: string;
  createdAt: Date;
};

const COLUMNS = `i.id, i.email, i.role, i.organization_id AS "organizationId", i.group_ids AS "groupIds",
  i.wearer_id AS "wearerId", i.name, i.locale, i.invited_by AS "invitedBy", i.expires_at AS "expiresAt",
  i.used_at AS "usedAt", i.replaced_at AS "replacedAt"`;
const LIVE = 'i.used_at IS NULL AND i.replaced_at IS NULL';

/** The SQL of invitations (single-use links, kept as SHA-256). */
export function invitationsRepository(db: Queryable) {
  return {
    async findByHash(tokenHash: string): Promise<InvitationRow | null> {
      const rows = await db.query<InvitationRow>(
        `SELECT ${COLUMNS} FROM invitations i WHERE i.token_hash = $1`,
        [tokenHash],
      );
      return rows[0] ?? null;
    },

    async findLive(id: string): Promise<InvitationRow | null> {
      const rows = await db.query<InvitationRow>(
        `SELECT ${COLUMNS} FROM invitations i WHERE i.id = $1 AND ${LIVE}`,
        [id],
      );
      return rows[0] ?? null;
    },

    /** Ends the live invitation to the address, if any (a new one replaces it). */
    async replaceLive(email: string, at: Date): Promise<void> {
      await db.query(`UPDATE invitations i SET replaced_at = $2 WHERE i.email = $1 AND ${LIVE}`, [
        email,
        at,
      ]);
    },

    async insert(row: NewInvitation): Promise<void> {
      await db.query(
        `INSERT INTO invitations (id, email, role, organization_id, group_ids, wearer_id, name, locale, invited_by,
                                  token_hash, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10, $11, $12)`,
        [
          row.id,
          row.email,
          row.role,
          row.organizationId,
          row.groupIds,
          row.wearerId,
          row.name,
          row.locale,
          row.invitedBy,
          row.tokenHash,
          row.expiresAt,
          row.createdAt,
        ],
      );
    },

    /** Uses the invitation up; false when another request used it first, or it ended meanwhile. */
    async consume(id: string, at: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE invitations i SET used_at = $2 WHERE i.id = $1 AND ${LIVE} AND i.expires_at > $2 RETURNING i.id`,
        [id, at],
      );
      return rows.length > 0;
    },

    /** A live account holds the address (a removed person's row does not stop a new invitation). */
    async accountExists(email: string): Promise<boolean> {
      const rows = await db.query('SELECT 1 FROM users WHERE email = $1 AND deleted_at IS NULL', [
        email,
      ]);
      return rows.length > 0;
    },

    /** Names the /verify page and the mail show: inviter, organisation, wearer. */
    async names(row: Pick<InvitationRow, 'invitedBy' | 'organizationId' | 'wearerId'>) {
      const rows = await db.query<{
        inviterName: string | null;
        organizationName: string | null;
        wearerName: string | null;
      }>(
        `SELECT (SELECT name FROM users WHERE id = $1) AS "inviterName",
                (SELECT name FROM organizations WHERE id = $2) AS "organizationName",
                (SELECT name FROM users WHERE id = $3 AND deleted_at IS NULL) AS "wearerName"`,
        [row.invitedBy, row.organizationId, row.wearerId],
      );
      return rows[0] ?? { inviterName: null, organizationName: null, wearerName: null };
    },

    /** Creates the account an invitation describes, with its groups, wearer link and terms agreement. */
    async createAccount(a: {
      uid: string;
      invitation: InvitationRow;
      name: string;
      passwordHash: string;
      locale: MessageLocale;
      termsVersion: string;
      at: Date;
    }): Promise<void> {
      const inv = a.invitation;
      // Family members belong to no organisation; they reach the wearer through the link.
      const organizationId = inv.wearerId ? null : inv.organizationId;
      // A removed person's row keeps its name for the records but gives the address up to the new account.
      await db.query('UPDATE users SET email = NULL WHERE email = $1 AND deleted_at IS NOT NULL', [
        inv.email,
      ]);
      await db.query(
        `INSERT INTO users (id, organization_id, role, name, email, email_verified, password_hash, locale, created_at)
         VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8)`,
        [a.uid, organizationId, inv.role, a.name, inv.email, a.passwordHash, a.locale, a.at],
      );
      // Groups removed since the invitation are left out.
      await db.query(
        `INSERT INTO group_managers (group_id, user_id)
         SELECT g.id, $2 FROM groups g WHERE g.id = ANY($1::text[]) AND g.organization_id = $3`,
        [inv.groupIds, a.uid, inv.organizationId],
      );
      if (inv.wearerId) {
        await db.query(
          'INSERT INTO user_links (user_id, wearer_id, created_at) VALUES ($1, $2, $3)',
          [a.uid, inv.wearerId, a.at],
        );
      }
      await db.query(
        'INSERT INTO terms_agreements (user_id, version, agreed_at) VALUES ($1, $2, $3)',
        [a.uid, a.termsVersion, a.at],
      );
    },

    /** The organisation's live invitations (for the staff list), newest first, optionally matching q. */
    async listLive(
      organizationId: string,
      q: string | undefined,
      now: Date,
    ): Promise<PendingInvitation[]> {
      const rows = await db.query<Omit<PendingInvitation, 'expiresAt'> & { expiresAt: Date }>(
        `SELECT i.id, i.email, i.role, i.wearer_id AS "wearerId", inviter.name AS "invitedBy", i.expires_at AS "expiresAt",
                i.expires_at <= $3 AS expired,
                COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY g.name)
                            FROM groups g WHERE g.id = ANY(i.group_ids)), '[]'::json) AS groups
           FROM invitations i LEFT JOIN users inviter ON inviter.id = i.invited_by
          WHERE i.organization_id = $1 AND ${LIVE} AND i.wearer_id IS NULL
            AND ($2::text IS NULL OR strpos(lower(i.email), lower($2)) > 0)
          ORDER BY i.created_at DESC LIMIT 200`,
        [organizationId, q ?? null, now],
      );
      return rows.map((r) => ({ ...r, expiresAt: new Date(r.expiresAt).toISOString() }));
    },
  };
}
