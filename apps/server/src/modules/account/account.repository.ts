import type { Queryable } from '../../db/client.js';

export interface AccountRow {
  id: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
  phoneNumber: string | null;
  phoneVerified: boolean;
  passwordHash: string | null;
  organizationId: string | null;
  locale: 'ja' | 'en';
}

export interface SessionRow {
  id: string;
  userAgent: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
}

/** The SQL of one's own account: profile fields, sessions (refresh-token families). */
export function accountRepository(db: Queryable) {
  return {
    async find(userId: string): Promise<AccountRow | null> {
      const rows = await db.query<AccountRow>(
        `SELECT id, name, email, email_verified AS "emailVerified", phone_number AS "phoneNumber",
                phone_verified AS "phoneVerified", password_hash AS "passwordHash",
                organization_id AS "organizationId", locale
           FROM users WHERE id = $1 AND deleted_at IS NULL AND role IS NOT NULL`,
        [userId],
      );
      return rows[0] ?? null;
    },

    /** Whether another living account has this address (or has proved this number). */
    async emailTaken(email: string, exceptUserId: string): Promise<boolean> {
      const rows = await db.query(
        'SELECT 1 FROM users WHERE email = $1 AND id <> $2 AND deleted_at IS NULL',
        [email, exceptUserId],
      );
      return rows.length > 0;
    },
    async phoneTaken(phoneNumber: string, exceptUserId: string): Promise<boolean> {
      const rows = await db.query(
        'SELECT 1 FROM users WHERE phone_number = $1 AND phone_verified AND id <> $2 AND deleted_at IS NULL',
        [phoneNumber, exceptUserId],
      );
      return rows.length > 0;
    },

    async setVerifiedPhone(userId: string, phoneNumber: string): Promise<void> {
      await db.query('UPDATE users SET phone_number = $2, phone_verified = true WHERE id = $1', [
        userId,
        phoneNumber,
      ]);
    },
    async setVerifiedEmail(userId: string, email: string): Promise<void> {
      // A removed person's row keeps its name for the records but gives the address up.
      await db.query('UPDATE users SET email = NULL WHERE email = $1 AND deleted_at IS NOT NULL', [
        email,
      ]);
      await db.query('UPDATE users SET email = $2, email_verified = true WHERE id = $1', [
        userId,
        email,
      ]);
    },
    async setPasswordHash(userId: string, hash: string): Promise<void> {
      await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
    },

    /** Open sessions: families with a token neither revoked nor expired; last used = the newest token's time. */
    async liveSessions(userId: string, now: Date): Promise<SessionRow[]> {
      return db.query<SessionRow>(
        `SELECT family_id AS id,
                (array_agg(user_agent ORDER BY created_at DESC) FILTER (WHERE user_agent IS NOT NULL))[1] AS "userAgent",
                min(session_started_at) AS "createdAt", max(created_at) AS "lastUsedAt", max(expires_at) AS "expiresAt"
           FROM refresh_tokens
          WHERE user_id = $1
          GROUP BY family_id
         HAVING bool_or(revoked_at IS NULL AND expires_at > $2)
          ORDER BY max(created_at) DESC`,
        [userId, now],
      );
    },

    /** Revokes the user's sessions (all, or all but one, or one); returns the ids that ended. */
    async revokeSessions(
      userId: string,
      at: Date,
      only: { one?: string; except?: string | null },
    ): Promise<string[]> {
      const rows = await db.query<{ familyId: string }>(
        `UPDATE refresh_tokens SET revoked_at = $2
          WHERE user_id = $1 AND revoked_at IS NULL
            AND ($3::text IS NULL OR family_id = $3) AND ($4::text IS NULL OR family_id <> $4)
          RETURNING family_id AS "familyId"`,
        [userId, at, only.one ?? null, only.except ?? null],
      );
      return [...new Set(rows.map((r) => r.familyId))];
    },

    async setUserAgent(tokenHash: string, userAgent: string): Promise<void> {
      await db.query('UPDATE refresh_tokens SET user_agent = $2 WHERE token_hash = $1', [
        tokenHash,
        userAgent,
      ]);
    },
  };
}
