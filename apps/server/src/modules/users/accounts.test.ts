import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { accountsService } from './accounts.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('create-admin (accountsService.createPlatformOwner)', () => {
  it('creates an ALL_OWNER who can sign in', async () => {
    const email = `Admin-${randomUUID().slice(0, 8)}@Example.test`;
    const admin = await accountsService(t.db).createPlatformOwner({
      email,
      password: 'a-long-password',
      name: '管理者',
    });
    expect(admin.email).toBe(email.toLowerCase());
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/signIn',
      payload: { email, password: 'a-long-password' },
    });
    expect(res.statusCode).toBe(200);
    const me = await t.app.inject({
      url: '/v2/user',
      headers: { authorization: `Bearer ${res.json().accessToken}` },
    });
    expect(me.json()).toMatchObject({
      role: 'ALL_OWNER',
      name: '管理者',
      mediromOrganizationId: null,
    });
  });

  it.each([
    [
      'a short password',
      { password: 'elevenchars' },
      'The password must be at least 12 characters',
    ],
    ['a bad e-mail', { email: 'not-an-email' }, '"not-an-email" is not an e-mail address'],
  ])('refuses %s with one clear line, creating nothing', async (_case, change, message) => {
    const email = `x-${randomUUID().slice(0, 8)}@example.test`;
    await expect(
      accountsService(t.db).createPlatformOwner({ email, password: 'a-long-password', ...change }),
    ).rejects.toThrow(message);
    expect(await t.db.query('SELECT 1 FROM users WHERE email = $1', [email])).toHaveLength(0);
  });

  it('refuses a taken e-mail', async () => {
    const email = `taken-${randomUUID().slice(0, 8)}@example.test`;
    await accountsService(t.db).createPlatformOwner({ email, password: 'a-long-password' });
    await expect(
      accountsService(t.db).createPlatformOwner({
        email: email.toUpperCase(),
        password: 'another-long-one',
      }),
    ).rejects.toThrow(`A user with e-mail ${email} already exists`);
  });
});
