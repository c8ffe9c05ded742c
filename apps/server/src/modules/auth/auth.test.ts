import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenPair } from '@wearable/domain';
import { createOrganization, createUser, FACTORY_PASSWORD } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { authRepository } from './auth.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ signInMaxFailures: 3, signInWindow: 600 });
});
afterAll(() => t.close());

const signIn = (email: string, password: string, remoteAddress = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/v2/auth/signIn',
    payload: { email, password },
    remoteAddress,
  });
const refresh = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/v2/auth/refresh', payload: { refreshToken } });
const getUser = (accessToken: string) =>
  t.app.inject({ url: '/v2/user', headers: { authorization: `Bearer ${accessToken}` } });
// Each test signs in from its own address so the per-address limit of one does not touch another.
let address = 0;
const nextAddress = () => `10.1.0.${++address}`;

async function newOwner() {
  const org = await createOrganization(t);
  return createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
}

describe('POST /v2/auth/signIn', () => {
  it('returns a bearer token pair that opens the API', async () => {
    const owner = await newOwner();
    const res = await signIn(owner.email, FACTORY_PASSWORD, nextAddress());
    expect(res.statusCode).toBe(200);
    const pair = res.json<TokenPair>();
    expect(pair).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    expect(pair.refreshToken).toMatch(/^[\w-]{43}$/);
    expect((await getUser(pair.accessToken)).statusCode).toBe(200);
  });

  it('accepts the e-mail in any case and with spaces around', async () => {
    const owner = await newOwner();
    const res = await signIn(
      ` ${owner.email.toUpperCase()} `.trim(),
      FACTORY_PASSWORD,
      nextAddress(),
    );
    expect(res.statusCode).toBe(200);
  });

  it('gives the identical 401 for a wrong password and an unknown account', async () => {
    const owner = await newOwner();
    const ip = nextAddress();
    const wrong = await signIn(owner.email, 'not-the-password', ip);
    const unknown = await signIn('nobody-here@example.test', 'not-the-password', ip);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'Email or password is incorrect',
    });
  });

  it('locks an account at an address after too many failures there, even with the right password', async () => {
    const owner = await newOwner();
    const ip = nextAddress();
    for (let i = 0; i < 3; i++)
      expect((await signIn(owner.email, 'wrong', ip)).statusCode).toBe(401);
    const locked = await signIn(owner.email, FACTORY_PASSWORD, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      message:
        'Too many failed sign-ins for this account from this address; try again in 10 minutes, or sign in with an email link',
    });
    // An unknown account locks the same way: the 429 does not tell whether it exists.
    const ghostIp = nextAddress();
    for (let i = 0; i < 3; i++) await signIn('ghost@example.test', 'wrong', ghostIp);
    // (The seconds left differ by the time between the two.)
    const withoutWait = ({ retryAfterSeconds, ...rest }: { retryAfterSeconds: number }) => {
      expect(retryAfterSeconds).toBeGreaterThan(590);
      return rest;
    };
    expect(withoutWait((await signIn('ghost@example.test', 'wrong', ghostIp)).json())).toEqual(
      withoutWait(locked.json()),
    );
  });

  it('the lock ends when the window has passed', async () => {
    const owner = await newOwner();
    const ip = nextAddress();
    for (let i = 0; i < 3; i++) await signIn(owner.email, 'wrong', ip);
    expect((await signIn(owner.email, FACTORY_PASSWORD, ip)).statusCode).toBe(429);
    const realNow = t.ctx.now;
    t.ctx.now = () => new Date(realNow().getTime() + 601_000);
    try {
      expect((await signIn(owner.email, FACTORY_PASSWORD, ip)).statusCode).toBe(200);
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('ended failure windows can be dropped without touching live ones', async () => {
    const ip = nextAddress();
    await signIn('stale-window@example.test', 'wrong', ip);
    const repo = authRepository(t.db);
    const key = `ip:${ip}`;
    await repo.deleteStaleFailures(new Date(Date.now() - 60_000));
    expect(await repo.failureWindows([key])).toHaveLength(1);
    await repo.deleteStaleFailures(new Date(Date.now() + 1_000));
    expect(await repo.failureWindows([key])).toHaveLength(0);
  });

  it('one address trying many accounts is slowed, never refused: colleagues behind one NAT still sign in', async () => {
    const ip = nextAddress();
    // Issue 35: three people's typos at one address locked every account there.
    for (let i = 0; i < 4; i++) await signIn(`guess-${i}@example.test`, 'wrong', ip);
    const owner = await newOwner();
    expect((await signIn(owner.email, FACTORY_PASSWORD, ip)).statusCode).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"email": ', 'FST_ERR_CTP_INVALID_JSON_BODY', undefined],
    ['missing email', JSON.stringify({ password: 'x' }), 'VALIDATION_FAILED', 'body.email'],
    [
      'email not a string',
      JSON.stringify({ email: 42, password: 'x' }),
      'VALIDATION_FAILED',
      'body.email',
    ],
    [
      'email not an address',
      JSON.stringify({ email: 'nope', password: 'x' }),
      'VALIDATION_FAILED',
      'body.email',
    ],
    [
      'missing password',
      JSON.stringify({ email: 'a@example.test' }),
      'VALIDATION_FAILED',
      'body.password',
    ],
  ])('refuses %s with a 400', async (_case, payload, code, field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/signIn',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(code);
    if (field) expect(res.json().message).toContain(field);
  });
});

describe('POST /v2/auth/refresh', () => {
  it('rotates: the new pair works, the old refresh token is refused', async () => {
    const owner = await newOwner();
    const first = await refresh(owner.refreshToken);
    expect(first.statusCode).toBe(200);
    const second = first.json<TokenPair>();
    expect(second.refreshToken).not.toBe(owner.refreshToken);
    expect((await getUser(second.accessToken)).statusCode).toBe(200);
    expect((await refresh(second.refreshToken)).statusCode).toBe(200);
  });

  it('reuse of a rotated token revokes the whole family, access tokens included', async () => {
    const owner = await newOwner();
    const rotated = (await refresh(owner.refreshToken)).json<TokenPair>();
    const reuse = await refresh(owner.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('REFRESH_TOKEN_REUSED');
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
    expect((await getUser(rotated.accessToken)).statusCode).toBe(401);
  });

  it('refuses an unknown or expired refresh token', async () => {
    expect((await refresh('x'.repeat(43))).json().code).toBe('INVALID_REFRESH_TOKEN');
    const owner = await newOwner();
    const realNow = t.ctx.now;
    t.ctx.now = () => new Date(realNow().getTime() + (t.ctx.config.refreshTokenTtl + 1) * 1000);
    try {
      expect((await refresh(owner.refreshToken)).statusCode).toBe(401);
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('refuses a missing refreshToken naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v2/auth/refresh', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('body.refreshToken');
  });
});

describe('POST /v2/auth/signOut', () => {
  it('revokes the session: its refresh and access tokens stop working', async () => {
    const owner = await newOwner();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/signOut',
      headers: owner.headers,
      payload: { refreshToken: owner.refreshToken },
    });
    expect(res.statusCode).toBe(204);
    expect((await refresh(owner.refreshToken)).statusCode).toBe(401);
    expect((await getUser(owner.accessToken)).statusCode).toBe(401);
  });

  it('works without a body and leaves the user’s other sessions alone', async () => {
    const owner = await newOwner();
    const other = (await signIn(owner.email, FACTORY_PASSWORD, nextAddress())).json<TokenPair>();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/signOut',
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(204);
    expect((await getUser(owner.accessToken)).statusCode).toBe(401);
    expect((await getUser(other.accessToken)).statusCode).toBe(200);
  });

  it('needs a bearer token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/v2/auth/signOut' })).statusCode).toBe(401);
  });
});

describe('bearer tokens', () => {
  it('refuses no token, a malformed header, a forged token and an expired one', async () => {
    const owner = await newOwner();
    expect((await t.app.inject({ url: '/v2/user' })).json().code).toBe('UNAUTHORIZED');
    const basic = await t.app.inject({ url: '/v2/user', headers: { authorization: 'Basic abc' } });
    expect(basic.statusCode).toBe(401);
    const [h, p] = owner.accessToken.split('.');
    expect((await getUser(`${h}.${p}.AAAA`)).statusCode).toBe(401);
    const realNow = t.ctx.now;
    t.ctx.now = () => new Date(realNow().getTime() + 901_000);
    try {
      const expired = await getUser(owner.accessToken);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().code).toBe('INVALID_TOKEN');
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('a deleted user’s token is refused', async () => {
    const owner = await newOwner();
    expect((await getUser(owner.accessToken)).statusCode).toBe(200);
    await t.db.query('UPDATE users SET deleted_at = now() WHERE id = $1', [owner.uid]);
    expect((await getUser(owner.accessToken)).statusCode).toBe(401);
  });
});
