import type { Queryable } from '../../db/client.js';

export interface SignInAccount {
  id: string;
  passwordHash: string | null;
}

export interface RefreshTokenRow {
  id: string;
  userId: string;
  familyId: string;
  expiresAt: Date;
  sessionStartedAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export interface FailureWindow {
  key: string;
  failures: number;
  windowStart: Date;
}

/** The SQL of sign-in, refresh tokens and failure counting. */
export function authRepository(db: Queryable) {
  return {
    /** A living account that may sign in (wearers without a role never can). */
    async findAccountByEmail(email: string): Promise<SignInAccount | null> {
      const rows = await db.query<SignInAccount>(
        `SELECT id, password_hash AS "passwordHash" FROM users
          WHERE email = $1 AND deleted_at IS NULL AND role IS NOT NULL`,
        [email],
      );
      return rows[0] ?? null;
    },

    async isActiveUser(userId: string): Promise<boolean> {
      const rows = await db.query(
        'SELECT 1 FROM users WHERE id = $1 AND deleted_at IS NULL AND role IS NOT NULL',
        [userId],
      );
      return rows.length > 0;
    },

    async insertRefreshToken(row: {
      id: string;
      userId: string;
      familyId: string;
      tokenHash: string;
      expiresAt: Date;
      sessionStartedAt: Date;
      createdAt: Date;
    }): Promise<void> {
      await db.query(
        `INSERT INTO refresh_tokens
           (id, user_id, family_id, token_hash, expires_at, session_started_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          row.id,
          row.userId,
          row.familyId,
          row.tokenHash,
          row.expiresAt,
          row.sessionStartedAt,
          row.createdAt,
        ],
      );
    },

    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | null> {
      const rows = await db.query<RefreshTokenRow>(
        `SELECT id, user_id AS "userId", family_id AS "familyId", expires_at AS "expiresAt",
                session_started_at AS "sessionStartedAt", rotated_at AS "rotatedAt",
                revoked_at AS "revokedAt"
           FROM refresh_tokens WHERE token_hash = $1`,
        [tokenHash],
      );
      return rows[0] ?? null;
    },

    /** Marks a token used; false when another request used or revoked it first (a race = reuse). */
    async markRotated(id: string, at: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE refresh_tokens SET rotated_at = $2
          WHERE id = $1 AND rotated_at IS NULL AND revoked_at IS NULL RETURNING id`,
        [id, at],
      );
      return rows.length > 0;
    },

    async revokeFamily(familyId: string, at: Date, userId?: string): Promise<void> {
      await db.query(
        `UPDATE refresh_tokens SET revoked_at = $2
          WHERE family_id = $1 AND revoked_at IS NULL AND ($3::text IS NULL OR user_id = $3)`,
        [familyId, at, userId ?? null],
      );
    },

    async failureWindows(keys: string[]): Promise<FailureWindow[]> {
      return db.query<FailureWindow>(
        `SELECT key, failures, window_start AS "windowStart"
           FROM sign_in_failures WHERE key = ANY($1::text[])`,
        [keys],
      );
    },

    /**
     * Counts an attempt against every key before its password is checked, in one atomic UPSERT,
     * so concurrent attempts cannot all read a count below the limit. A window older than
     * windowStartCutoff starts over at 1. Returns each key's count including this attempt.
     */
    async reserveAttempt(
      keys: string[],
      at: Date,
      windowStartCutoff: Date,
    ): Promise<FailureWindow[]> {
      return db.query<FailureWindow>(
        `INSERT INTO sign_in_failures (key, failures, window_start)
         SELECT k, 1, $2 FROM unnest($1::text[]) AS k
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN sign_in_failures.window_start <= $3
                           THEN 1 ELSE sign_in_failures.failures + 1 END,
           window_start = CASE WHEN sign_in_failures.window_start <= $3
                               THEN $2 ELSE sign_in_failures.window_start END
         RETURNING key, failures, window_start AS "windowStart"`,
        [keys, at, windowStartCutoff],
      );
    },

    /** Gives back an attempt that turned out right (it was counted in advance). */
    async releaseAttempt(key: string): Promise<void> {
      await db.query(
        'UPDATE sign_in_failures SET failures = GREATEST(failures - 1, 0) WHERE key = $1',
        [key],
      );
    },

    /** Forgets windows that ended before the cutoff (they no longer count). */
    async deleteStaleFailures(windowStartCutoff: Date): Promise<void> {
      await db.query('DELETE FROM sign_in_failures WHERE window_start <= $1', [windowStartCutoff]);
    },

    async clearFailures(key: string): Promise<void> {
      await db.query('DELETE FROM sign_in_failures WHERE key = $1', [key]);
    },

    /** Every password failure counted for a typed address (account-wide and at each client address). */
    async clearFailuresOfEmail(email: string): Promise<void> {
      await db.query(`DELETE FROM sign_in_failures WHERE key = $1 OR starts_with(key, $2)`, [
        `email:${email}`,
        `email-ip:${email}|`,
      ]);
    },
  };
}
export type AuthRepository = ReturnType<typeof authRepository>;
