import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MfaChallenge, TokenPair } from '@wearable/domain';
import { createOrganization, createUser, type UserRecord } from '../../testing/factories.js';
import { startOidcProvider, type TestOidcProvider } from '../../testing/oidc-provider.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

const PUBLIC_URL = 'http://localhost:3999';
let t: TestApp;
let provider: TestOidcProvider;
let member: UserRecord;

beforeAll(async () => {
  provider = await startOidcProvider(`${PUBLIC_URL}/v2/auth/oidc/callback`, [
    { sub: 'member', email: 'oidc-member@example.test', emailVerified: true },
    { sub: 'unverified', email: 'oidc-unverified@example.test', emailVerified: false },
    { sub: 'stranger', email: 'nobody-here@example.test', emailVerified: true },
    { sub: 'totp-member', email: 'oidc-totp@example.test', emailVerified: true },
  ]);
  t = await createTestApp({
    publicUrl: PUBLIC_URL,
    oidc: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      displayName: 'Example ID',
    },
  });
  const org = await createOrganization(t);
  member = await createUser(t, {
    role: 'ORGANIZATION_GENERAL',
    organizationId: org.id,
    email: 'OIDC-member@example.test',
  });
  await createUser(t, {
    role: 'ORGANIZATION_GENERAL',
    organizationId: org.id,
    email: 'oidc-unverified@example.test',
  });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

/** Opens /v2/auth/oidc/start as a browser would: the provider's URL and the binding cookie. */
async function start() {
  const res = await t.app.inject({ url: '/v2/auth/oidc/start' });
  expect(res.statusCode).toBe(302);
  const cookie = /^(oidc_browser=[^;]+);/.exec(String(res.headers['set-cookie']))?.[1] ?? '';
  expect(String(res.headers['set-cookie'])).toContain('HttpOnly');
  return { location: String(res.headers.location), cookie };
}

/** Follows the provider's redirect back to the callback; returns where the console sends the browser. */
async function callback(returned: URL, cookie: string) {
  const res = await t.app.inject({
    url: `${returned.pathname}${returned.search}`,
    headers: { cookie },
  });
  expect(res.statusCode).toBe(303);
  const target = new URL(String(res.headers.location));
  expect(`${target.origin}${target.pathname}`).toBe(`${PUBLIC_URL}/login/oidc`);
  // Nothing secret in what a server would see (path and query): only in the fragment.
  expect(target.search).toBe('');
  return new URLSearchParams(target.hash.slice(1));
}

const exchange = (code: string) =>
  t.app.inject({ method: 'POST', url: '/v2/auth/oidc/exchange', payload: { code } });

describe('social sign-in (OpenID Connect) against a real provider', () => {
  it('puts the provider on the login page through GET /v2/auth/methods', async () => {
    const res = await t.app.inject({ url: '/v2/auth/methods' });
    expect(res.json()).toMatchObject({ oidc: { displayName: 'Example ID' } });
  });

  it('signs the person in to the existing account with the same verified email', async () => {
    const { location, cookie } = await start();
    const authorize = new URL(location);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const returned = await provider.signIn(location, 'member');
    const fragment = await callback(returned, cookie);
    const code = fragment.get('code') ?? '';
    expect(fragment.get('error')).toBeNull();

    const res = await exchange(code);
    expect(res.statusCode).toBe(200);
    const pair = res.json<TokenPair>();
    const me = await t.app.inject({
      url: '/v2/user',
      headers: { authorization: `Bearer ${pair.accessToken}` },
    });
    expect(me.json()).toMatchObject({ uid: member.uid });
    // The exchange code is single-use.
    expect((await exchange(code)).json()).toMatchObject({
      statusCode: 401,
      code: 'INVALID_EXCHANGE_CODE',
    });
  });

  it('refuses an email the provider has not verified, even for an existing account', async () => {
    const { location, cookie } = await start();
    const fragment = await callback(await provider.signIn(location, 'unverified'), cookie);
    expect(fragment.get('error')).toBe('OIDC_EMAIL_NOT_VERIFIED');
    expect(fragment.get('code')).toBeNull();
  });

  it('refuses an unknown email and creates nothing', async () => {
    const { location, cookie } = await start();
    const fragment = await callback(await provider.signIn(location, 'stranger'), cookie);
    expect(fragment.get('error')).toBe('OIDC_ACCOUNT_NOT_FOUND');
    const rows = await t.db.query('SELECT 1 FROM users WHERE email = $1', [
      'nobody-here@example.test',
    ]);
    expect(rows).toHaveLength(0);
  });

  it('refuses a reused state, a forged state, and a callback from another browser', async () => {
    const { location, cookie } = await start();
    const returned = await provider.signIn(location, 'member');
    // Another browser (no cookie, or another sign-in's cookie) cannot use this callback...
    const other = await start();
    expect((await callback(returned, other.cookie)).get('error')).toBe('OIDC_STATE_INVALID');
    // ...and the state died with that attempt: the right browser cannot reuse it either.
    expect((await callback(returned, cookie)).get('error')).toBe('OIDC_STATE_INVALID');

    const fresh = await start();
    const good = await provider.signIn(fresh.location, 'member');
    expect((await callback(good, fresh.cookie)).get('code')).toBeTruthy();
    expect((await callback(good, fresh.cookie)).get('error')).toBe('OIDC_STATE_INVALID');

    const forged = new URL(good);
    forged.searchParams.set('state', 'forged-state-value');
    expect((await callback(forged, fresh.cookie)).get('error')).toBe('OIDC_STATE_INVALID');
  });

  it('hands a member with TOTP on the second step, not the tokens', async () => {
    const org = await createOrganization(t);
    await createUser(t, {
      role: 'ORGANIZATION_GENERAL',
      organizationId: org.id,
      email: 'oidc-totp@example.test',
    });
    await t.db.query('UPDATE organizations SET require_totp = true WHERE id = $1', [org.id]);
    const { location, cookie } = await start();
    const fragment = await callback(await provider.signIn(location, 'totp-member'), cookie);
    const res = await exchange(fragment.get('code') ?? '');
    expect(res.json<MfaChallenge>()).toMatchObject({
      mfaRequired: true,
      code: 'TOTP_ENROLMENT_REQUIRED',
    });
  });

  it('refuses bad input on its endpoints with a 400 naming the field', async () => {
    const tooLong = await t.app.inject({ url: `/v2/auth/oidc/callback?state=${'x'.repeat(3000)}` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('state');
    for (const payload of [{}, { code: 1 }, { code: 'short' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/v2/auth/oidc/exchange', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('code');
    }
  });
});
