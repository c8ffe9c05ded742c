import type { Queryable } from '../../db/client.js';

export interface OidcStateRow {
  browserHash: string;
  nonce: string;
  codeVerifier: string;
}

/** The SQL of OpenID Connect sign-ins in progress. */
export function oidcRepository(db: Queryable) {
  return {
    async insertState(row: {
      stateHash: string;
      browserHash: string;
      nonce: string;
      codeVerifier: string;
      expiresAt: Date;
      createdAt: Date;
    }): Promise<void> {
      await db.query(
        `INSERT INTO oidc_sign_in_states
           (state_hash, browser_hash, nonce, code_verifier, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [row.stateHash, row.browserHash, row.nonce, row.codeVerifier, row.expiresAt, row.createdAt],
      );
      // Now and then, drop abandoned sign-ins so the table holds only live ones.
      if (Math.random() < 0.05) {
        await db.query('DELETE FROM oidc_sign_in_states WHERE expires_at <= $1', [row.createdAt]);
      }
    },

    /** Uses a state up: the first callback with it gets the row, any later one null. */
    async consumeState(stateHash: string, now: Date): Promise<OidcStateRow | null> {
      const rows = await db.query<OidcStateRow>(
        `DELETE FROM oidc_sign_in_states WHERE state_hash = $1 AND expires_at > $2
         RETURNING browser_hash AS "browserHash", nonce, code_verifier AS "codeVerifier"`,
        [stateHash, now],
      );
      return rows[0] ?? null;
    },
  };
}
