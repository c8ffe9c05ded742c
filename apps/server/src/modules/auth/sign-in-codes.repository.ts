import type { MessageLocale } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

/** Sign-in secrets, and the checks of a new phone number (PHONE_VERIFY) or address (EMAIL_CHANGE) on /user/info. */
export type SignInCodeKind =
  'EMAIL_LINK' | 'PHONE_CODE' | 'PHONE_VERIFY' | 'EMAIL_CHANGE' | 'PASSWORD_RESET';

/** An account that may sign in, as a link or code needs it. */
export interface CodeAccount {
  id: string;
  name: string;
  email: string | null;
  locale: MessageLocale;
  organizationId: string | null;
}

export interface SignInCodeRow {
  id: string;
  userId: string;
  sentTo: string;
  codeHash: string;
  attempts: number;
  expiresAt: Date;
  usedAt: Date | null;
}

const ACCOUNT = `id, name, email, locale, organization_id AS "organizationId"`;
const LIVE_ACCOUNT = 'deleted_at IS NULL AND role IS NOT NULL';
const CODE = `id, user_id AS "userId", sent_to AS "sentTo", code_hash AS "codeHash", attempts,
              expires_at AS "expiresAt", used_at AS "usedAt"`;

/** The SQL of email-link and phone-code sign-in (single-use secrets, stored hashed). */
export function signInCodesRepository(db: Queryable) {
  return {
    async accountByEmail(email: string): Promise<CodeAccount | null> {
      const rows = await db.query<CodeAccount>(
        `SELECT ${ACCOUNT} FROM users WHERE email = $1 AND ${LIVE_ACCOUNT}`,
        [email],
      );
      return rows[0] ?? null;
    },

    /** Only a number its owner proved reaches an account. */
    async accountByVerifiedPhone(phoneNumber: string): Promise<CodeAccount | null> {
      const rows = await db.query<CodeAccount>(
        `SELECT ${ACCOUNT} FROM users WHERE phone_number = $1 AND phone_verified AND ${LIVE_ACCOUNT}`,
        [phoneNumber],
      );
      return rows[0] ?? null;
    },

    async accountById(
      userId: string,
    ): Promise<(CodeAccount & { phoneNumber: string | null; phoneVerified: boolean }) | null> {
      const rows = await db.query<
        CodeAccount & { phoneNumber: string | null; phoneVerified: boolean }
      >(
        `SELECT ${ACCOUNT}, phone_number AS "phoneNumber", phone_verified AS "phoneVerified"
           FROM users WHERE id = $1 AND ${LIVE_ACCOUNT}`,
        [userId],
      );
      return rows[0] ?? null;
    },

    async insert(row: {
      id: string;
      kind: SignInCodeKind;
      userId: string;
      sentTo: string;
      codeHash: string;
      expiresAt: Date;
      createdAt: Date;
    }) {
      await db.query(
        `INSERT INTO sign_in_codes (id, kind, user_id, sent_to, code_hash, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [row.id, row.kind, row.userId, row.sentTo, row.codeHash, row.expiresAt, row.createdAt],
      );
    },

    async findByHash(kind: SignInCodeKind, codeHash: string): Promise<SignInCodeRow | null> {
      const rows = await db.query<SignInCodeRow>(
        `SELECT ${CODE} FROM sign_in_codes WHERE kind = $1 AND code_hash = $2`,
        [kind, codeHash],
      );
      return rows[0] ?? null;
    },

    /** The user's newest code of a kind that is neither used nor expired. */
    async liveCode(kind: SignInCodeKind, userId: string, now: Date): Promise<SignInCodeRow | null> {
      const rows = await db.query<SignInCodeRow>(
        `SELECT ${CODE} FROM sign_in_codes
          WHERE kind = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > $3
          ORDER BY created_at DESC LIMIT 1`,
        [kind, userId, now],
      );
      return rows[0] ?? null;
    },

    /** Ends every unused code of a kind for the user (a new code replaces the old). */
    async voidCodes(kind: SignInCodeKind, userId: string, at: Date): Promise<void> {
      await db.query(
        'UPDATE sign_in_codes SET used_at = $3 WHERE kind = $1 AND user_id = $2 AND used_at IS NULL',
        [kind, userId, at],
      );
    },

    /** Uses a code up; false when another request used it first (or it died of wrong attempts). */
    async consume(id: string, at: Date, maxAttempts: number): Promise<boolean> {
      const rows = await db.query(
        'UPDATE sign_in_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND attempts < $3 RETURNING id',
        [id, at, maxAttempts],
      );
      return rows.length > 0;
    },

    /** Counts a wrong code; the last allowed wrong try ends it. */
    async recordWrongCode(id: string, at: Date, maxAttempts: number): Promise<void> {
      await db.query(
        `UPDATE sign_in_codes SET attempts = attempts + 1,
                used_at = CASE WHEN attempts + 1 >= $3 THEN $2 ELSE used_at END
          WHERE id = $1`,
        [id, at, maxAttempts],
      );
    },

    async markEmailVerified(userId: string): Promise<void> {
      await db.query(
        'UPDATE users SET email_verified = true WHERE id = $1 AND NOT email_verified',
        [userId],
      );
    },

    /** Drops codes that ended before the cutoff (nothing reads them). */
    async deleteEnded(cutoff: Date): Promise<void> {
      await db.query('DELETE FROM sign_in_codes WHERE expires_at <= $1', [cutoff]);
    },
  };
}
