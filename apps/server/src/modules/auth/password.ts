import { hash, verify } from '@node-rs/argon2';

// OWASP's Argon2id baseline (19 MiB, 2 passes): about 30 ms here, enough to slow guessing
// without letting a burst of sign-ins starve two shared cores.
export const PASSWORD_HASH_OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */ as const,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/** Argon2id hash (PHC string) of a password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/**
 * What an unknown account's password is checked against: the hash of a random password nobody kept,
 * made with PASSWORD_HASH_OPTIONS (password.test.ts holds them equal), so the check costs what a
 * real one does. A constant, not a hash made on first use: nothing per process to hold.
 */
export const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$mooB8A1nQTLQC4lV51vWGA$2TIzuNoaJB4bjMAmr9UEORbyMuy8JhH9LLt0bVRVAlo';

/**
 * Verifies a password; with no stored hash (unknown account, wearer without sign-in) it
 * verifies against a dummy hash so both cases cost the same time.
 */
export async function verifyPassword(
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    await verify(DUMMY_HASH, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
