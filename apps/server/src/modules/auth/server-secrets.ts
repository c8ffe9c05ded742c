import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/client.js';

/**
 * A random secret shared by every server through the database (the token signing key, the TOTP encryption
 * key, when no setting gives one): two servers starting at once both insert, the first insert wins and both
 * read the winner.
 */
export async function sharedServerSecret(db: Queryable, name: string): Promise<string> {
  await db.query(
    'INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
    [name, randomBytes(32).toString('base64url')],
  );
  const rows = await db.query<{ value: string }>(
    'SELECT value FROM server_secrets WHERE name = $1',
    [name],
  );
  const value = rows[0]?.value;
  if (!value) throw new Error(`server secret ${name} missing after insert`);
  return value;
}
