import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { badRequest, conflict } from '../../errors.js';
import { hashPassword } from '../auth/auth.service.js';
import { usersRepository } from './users.repository.js';

export const MIN_ADMIN_PASSWORD = 12;

/** Creates a platform owner (ALL_OWNER), the first account of a fresh installation. */
async function createPlatformOwner(
  db: Db,
  input: { email: string; password: string; name?: string | undefined },
): Promise<{ uid: string; email: string }> {
  const email = input.email.trim().toLowerCase();
  if (!z.email().safeParse(email).success)
    throw badRequest(`"${input.email}" is not an e-mail address`);
  if (input.password.length < MIN_ADMIN_PASSWORD) {
    throw badRequest(`The password must be at least ${MIN_ADMIN_PASSWORD} characters`);
  }
  const repo = usersRepository(db);
  if (await repo.emailTaken(email)) throw conflict(`A user with e-mail ${email} already exists`);
  const uid = `usr-${randomUUID()}`;
  await repo.insertAccount({
    id: uid,
    role: 'ALL_OWNER',
    organizationId: null,
    name: input.name?.trim() || email.split('@')[0] || email,
    email,
    passwordHash: await hashPassword(input.password),
  });
  return { uid, email };
}

/** Accounts made outside the console: the command line's create-admin. */
export function accountsService(db: Db) {
  return {
    createPlatformOwner: (input: { email: string; password: string; name?: string | undefined }) =>
      createPlatformOwner(db, input),
  };
}
