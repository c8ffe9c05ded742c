import { createHash } from 'node:crypto';
import type { PasskeyTransport } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface PasskeyRow {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: PasskeyTransport[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type PasskeyChallengePurpose = 'REGISTER' | 'SIGN_IN' | 'SECOND_FACTOR' | 'ENROL';

const hash = (challenge: string) => createHash('sha256').update(challenge).digest('hex');
const columns = `id, user_id AS "userId", credential_id AS "credentialId", public_key AS "publicKey",
  counter, transports, name, created_at AS "createdAt", last_used_at AS "lastUsedAt"`;
// bigint comes back as a string from node-postgres.
const rowOf = (row: PasskeyRow & { counter: number | string }): PasskeyRow => ({
  ...row,
  counter: Number(row.counter),
});

/** The SQL of passkeys and of the WebAuthn challenges handed out for them (a factory taking the transaction). */
export function passkeysRepository(db: Queryable) {
  return {
    async listOf(userId: string): Promise<PasskeyRow[]> {
      const rows = await db.query<PasskeyRow>(
        `SELECT ${columns} FROM user_passkeys WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
      return rows.map(rowOf);
    },

    async findByCredential(credentialId: string): Promise<PasskeyRow | null> {
      const rows = await db.query<PasskeyRow>(
        `SELECT ${columns} FROM user_passkeys WHERE credential_id = $1`,
        [credentialId],
      );
      return rows[0] ? rowOf(rows[0]) : null;
    },

    /** False when the credential is already registered (to anyone). */
    async insert(row: Omit<PasskeyRow, 'lastUsedAt'>): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO user_passkeys (id, user_id, credential_id, public_key, counter, transports, name, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
        [
          row.id,
          row.userId,
          row.credentialId,
          row.publicKey,
          row.counter,
          row.transports,
          row.name,
          row.createdAt,
        ],
      );
      return rows.length > 0;
    },

    /** After an accepted assertion: the authenticator's counter, and when. */
    async markUsed(id: string, counter: number, at: Date): Promise<void> {
      await db.query('UPDATE user_passkeys SET counter = $2, last_used_at = $3 WHERE id = $1', [
        id,
        counter,
        at,
      ]);
    },

    /** Only the owner's: false for anyone else's or an unknown one. */
    async remove(userId: string, id: string): Promise<boolean> {
      const rows = await db.query(
        'DELETE FROM user_passkeys WHERE id = $1 AND user_id = $2 RETURNING id',
        [id, userId],
      );
      return rows.length > 0;
    },

    async issueChallenge(
      challenge: string,
      purpose: PasskeyChallengePurpose,
      userId: string | null,
      at: Date,
      ttlSeconds: number,
    ): Promise<void> {
      await db.query(
        `INSERT INTO passkey_challenges (challenge_hash, purpose, user_id, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [hash(challenge), purpose, userId, new Date(at.getTime() + ttlSeconds * 1000), at],
      );
      // Now and then, drop ended ones so the table holds only live challenges.
      if (Math.random() < 0.05) {
        await db.query('DELETE FROM passkey_challenges WHERE expires_at <= $1', [at]);
      }
    },

    /**
     * Uses a live challenge of the purpose up (for that user, or for nobody in particular); false when it
     * was never handed out, has ended, was already used, or was handed out for another purpose or person.
     */
    async consumeChallenge(
      challenge: string,
      purpose: PasskeyChallengePurpose,
      userId: string | null,
      at: Date,
    ): Promise<boolean> {
      const rows = await db.query(
        `DELETE FROM passkey_challenges
          WHERE challenge_hash = $1 AND purpose = $2 AND expires_at > $3
            AND user_id IS NOT DISTINCT FROM $4
          RETURNING challenge_hash`,
        [hash(challenge), purpose, at, userId],
      );
      return rows.length > 0;
    },
  };
}
export type PasskeysRepository = ReturnType<typeof passkeysRepository>;
