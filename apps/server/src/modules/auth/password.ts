import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// OWASP's Argon2id baseline (19 MiB, 2 passes): about 30 ms here, enough to slow guessing
// without letting a burst of sign-ins starve two shared cores.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */ as const,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/** Argon2id hash (PHC string) of a password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no stored hash (unknown account, wearer without sign-in) it
 * verifies against a dummy hash so both cases cost the same time.
 */
export async function verifyPassword(
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
