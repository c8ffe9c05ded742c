import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, PASSWORD_HASH_OPTIONS, verifyPassword } from './password.js';

const params = (phc: string) => phc.split('$').slice(1, 4).join('$');

describe('password hashing', () => {
  it('checks an unknown account against a dummy hash made with the same options as real ones', async () => {
    const real = await hashPassword('a-long-password');
    expect(params(DUMMY_HASH)).toBe(params(real));
    const { memoryCost, timeCost, parallelism } = PASSWORD_HASH_OPTIONS;
    expect(params(DUMMY_HASH)).toBe(`argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}`);
  });

  it('answers false without a stored hash, true only for the stored password', async () => {
    const stored = await hashPassword('a-long-password');
    expect(await verifyPassword(null, 'a-long-password')).toBe(false);
    expect(await verifyPassword(stored, 'another-password')).toBe(false);
    expect(await verifyPassword(stored, 'a-long-password')).toBe(true);
  });
});
