import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/client.js';

export type ChallengePurpose =
  | 'TOTP_REQUIRED'
  | 'TOTP_ENROLMENT_REQUIRED'
  | 'PASSKEY_REQUIRED'
  | 'SECOND_FACTOR_ENROLMENT_REQUIRED'
  | 'OIDC_EXCHANGE';

export interface ChallengeRow {
  tokenHash: string;
  userId: string;
  purpose: ChallengePurpose;
  attempts: number;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Single-use, short-lived values between a sign-in's first step and its tokens. The value goes
 * to the client once; the database keeps only its SHA-256.
 */
export function signInChallenges(db: Queryable, now: () => Date) {
  const columns = `token_hash AS "tokenHash", user_id AS "userId", purpose, attempts`;
  return {
    async issue(userId: string, purpose: ChallengePurpose, ttlSeconds: number): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const at = now();
      await db.query(
        `INSERT INTO sign_in_challenges (token_hash, user_id, purpose, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [hash(token), userId, purpose, new Date(at.getTime() + ttlSeconds * 1000), at],
      );
      // Now and then, drop ended ones so the table holds only live challenges.
      if (Math.random() < 0.05) {
        await db.query('DELETE FROM sign_in_challenges WHERE expires_at <= $1', [at]);
      }
      return token;
    },

    /** A live challenge of one of the purposes, without using it up. */
    async find(token: string, purposes: ChallengePurpose[]): Promise<ChallengeRow | null> {
      const rows = await db.query<ChallengeRow>(
        `SELECT ${columns} FROM sign_in_challenges
          WHERE token_hash = $1 AND expires_at > $2 AND purpose = ANY($3::text[])`,
        [hash(token), now(), purposes],
      );
      return rows[0] ?? null;
    },

    /** Counts a wrong answer; at maxAttempts the challenge is gone (sign in again). */
    async recordWrongAnswer(tokenHash: string, maxAttempts: number): Promise<void> {
      await db.query(
        'UPDATE sign_in_challenges SET attempts = attempts + 1 WHERE token_hash = $1',
        [tokenHash],
      );
      await db.query('DELETE FROM sign_in_challenges WHERE token_hash = $1 AND attempts >= $2', [
        tokenHash,
        maxAttempts,
      ]);
    },

    /** Uses the challenge up; null when it was already used (a race, a replay) or ended. */
    async consume(token: string, purposes: ChallengePurpose[]): Promise<ChallengeRow | null> {
      const rows = await db.query<ChallengeRow>(
        `DELETE FROM sign_in_challenges
          WHERE token_hash = $1 AND expires_at > $2 AND purpose = ANY($3::text[])
          RETURNING ${columns}`,
        [hash(token), now(), purposes],
      );
      return rows[0] ?? null;
    },
  };
}
