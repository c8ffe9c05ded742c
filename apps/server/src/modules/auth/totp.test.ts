import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URI } from 'otpauth';
import type { MfaChallenge, TokenPair, TotpSetupResponse } from '@wearable/domain';
import {
  createOrganization,
  createUser,
  FACTORY_PASSWORD,
  type UserRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
// A clock the test moves on by one 30-second step whenever it needs a fresh code (a code's step
// is accepted once only).
let clock = Date.now();
beforeAll(async () => {
  t = await createTestApp();
  t.ctx.now = () => new Date(clock);
});
afterAll(() => t.close());

const nextStep = () => (clock += 30_000);
let address = 0;
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers,
    remoteAddress: `10.7.0.${++address % 250}`,
  });
const signIn = (user: UserRecord) =>
  post('/v2/auth/signIn', { email: user.email, password: FACTORY_PASSWORD });
const codeFor = (setup: TotpSetupResponse) =>
  URI.parse(setup.otpauthUri).generate({ timestamp: clock });
const wrongCodeFor = (setup: TotpSetupResponse) =>
  String((Number(codeFor(setup)) + 1) % 1_000_000).padStart(6, '0');

async function staff(role: 'ORGANIZATION_OWNER' | 'ORGANIZATION_GENERAL' = 'ORGANIZATION_GENERAL') {
  const org = await createOrganization(t);
  return createUser(t, { role, organizationId: org.id });
}

async function turnOn(user: UserRecord): Promise<TotpSetupResponse> {
  const setup = (await post('/v2/auth/totp/setup', {}, user.headers)).json<TotpSetupResponse>();
  nextStep();
  const on = await post('/v2/auth/totp/enable', { code: codeFor(setup) }, user.headers);
  expect(on.json()).toEqual({ enabled: true, requiredByOrganization: false });
  return setup;
}

describe('TOTP second factor, turned on by the user', () => {
  it('is set up from a QR code, confirmed with a code, and never shows its secret again', async () => {
    const user = await staff();
    const setup = await post('/v2/auth/totp/setup', {}, user.headers);
    expect(setup.statusCode).toBe(200);
    const body = setup.json<TotpSetupResponse>();
    expect(body.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect(body.otpauthUri).toContain(encodeURIComponent(user.email));
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    // Not on until confirmed: sign-in still gives tokens.
    expect((await signIn(user)).json()).toHaveProperty('accessToken');

    nextStep();
    const wrong = await post('/v2/auth/totp/enable', { code: wrongCodeFor(body) }, user.headers);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_TOTP_CODE');
    const on = await post('/v2/auth/totp/enable', { code: codeFor(body) }, user.headers);
    expect(on.json()).toEqual({ enabled: true, requiredByOrganization: false });

    const again = await post('/v2/auth/totp/setup', {}, user.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('TOTP_ALREADY_ENABLED');
    // The secret is stored sealed, not as the base32 the app was given.
    const [row] = await t.db.query<{ secret: string }>(
      'SELECT secret_encrypted AS secret FROM user_totp WHERE user_id = $1',
      [user.uid],
    );
    expect(row?.secret).not.toContain(body.secret);
  });

  it('turns password sign-in into a challenge that one right code completes, once', async () => {
    const user = await staff();
    const setup = await turnOn(user);

    const first = await signIn(user);
    expect(first.statusCode).toBe(200);
    const challenge = first.json<MfaChallenge>();
    expect(challenge).toMatchObject({ mfaRequired: true, code: 'TOTP_REQUIRED', expiresIn: 300 });
    expect(first.json()).not.toHaveProperty('accessToken');

    nextStep();
    const wrong = await post('/v2/auth/totp/verify', {
      challenge: challenge.challenge,
      code: wrongCodeFor(setup),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_TOTP_CODE');

    const code = codeFor(setup);
    const ok = await post('/v2/auth/totp/verify', { challenge: challenge.challenge, code });
    expect(ok.statusCode).toBe(200);
    const pair = ok.json<TokenPair>();
    const me = await t.app.inject({
      url: '/v2/user',
      headers: { authorization: `Bearer ${pair.accessToken}` },
    });
    expect(me.json().uid ?? me.json().id).toBe(user.uid);

    // The challenge is used up, and the same code cannot open a second sign-in.
    const reused = await post('/v2/auth/totp/verify', { challenge: challenge.challenge, code });
    expect(reused.json().code).toBe('INVALID_CHALLENGE');
    const second = (await signIn(user)).json<MfaChallenge>();
    const replay = await post('/v2/auth/totp/verify', { challenge: second.challenge, code });
    expect(replay.json().code).toBe('INVALID_TOTP_CODE');
  });

  it('ends a challenge after five wrong codes', async () => {
    const user = await staff();
    const setup = await turnOn(user);
    const { challenge } = (await signIn(user)).json<MfaChallenge>();
    nextStep();
    for (let i = 0; i < 5; i++) {
      const res = await post('/v2/auth/totp/verify', { challenge, code: wrongCodeFor(setup) });
      expect(res.json().code).toBe('INVALID_TOTP_CODE');
    }
    const right = await post('/v2/auth/totp/verify', { challenge, code: codeFor(setup) });
    expect(right.statusCode).toBe(401);
    expect(right.json().code).toBe('INVALID_CHALLENGE');
  });

  it('stops taking codes for the account after too many wrong ones, across challenges', async () => {
    const user = await staff();
    const setup = await turnOn(user);
    nextStep();
    for (let i = 0; i < 5; i++) {
      const { challenge } = (await signIn(user)).json<MfaChallenge>();
      const res = await post('/v2/auth/totp/verify', { challenge, code: wrongCodeFor(setup) });
      expect(res.json().code).toBe('INVALID_TOTP_CODE');
    }
    const { challenge } = (await signIn(user)).json<MfaChallenge>();
    const right = await post('/v2/auth/totp/verify', { challenge, code: codeFor(setup) });
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('is turned off with a current code, and sign-in gives tokens again', async () => {
    const user = await staff();
    const setup = await turnOn(user);
    nextStep();
    const wrong = await post('/v2/auth/totp/disable', { code: wrongCodeFor(setup) }, user.headers);
    expect(wrong.statusCode).toBe(401);
    const off = await post('/v2/auth/totp/disable', { code: codeFor(setup) }, user.headers);
    expect(off.json()).toEqual({ enabled: false, requiredByOrganization: false });
    expect((await signIn(user)).json()).toHaveProperty('accessToken');
    const offAgain = await post('/v2/auth/totp/disable', { code: codeFor(setup) }, user.headers);
    expect(offAgain.json().code).toBe('TOTP_NOT_ENABLED');
  });
});

describe('TOTP required by the organisation', () => {
  it('makes a member without it enrol during sign-in, then asks for codes', async () => {
    const org = await createOrganization(t);
    const owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
    const member = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id });
    const require = await t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${org.id}/signInSettings`,
      headers: owner.headers,
      payload: { requireTotp: true },
    });
    expect(require.json()).toMatchObject({ requireTotp: true, requireSecondFactor: false });

    const first = (await signIn(member)).json<MfaChallenge>();
    expect(first).toMatchObject({ mfaRequired: true, code: 'TOTP_ENROLMENT_REQUIRED' });
    // An enrolment challenge cannot be answered before the secret exists.
    const early = await post('/v2/auth/totp/verify', {
      challenge: first.challenge,
      code: '123456',
    });
    expect(early.json().code).toBe('INVALID_CHALLENGE');
    const enrol = await post('/v2/auth/totp/enrol', { challenge: first.challenge });
    expect(enrol.statusCode).toBe(200);
    const setup = enrol.json<TotpSetupResponse>();
    nextStep();
    const done = await post('/v2/auth/totp/verify', {
      challenge: first.challenge,
      code: codeFor(setup),
    });
    expect(done.statusCode).toBe(200);
    const pair = done.json<TokenPair>();
    const status = await t.app.inject({
      url: '/v2/auth/totp',
      headers: { authorization: `Bearer ${pair.accessToken}` },
    });
    expect(status.json()).toEqual({ enabled: true, requiredByOrganization: true });

    // From now on: a code at every sign-in, and no turning it off.
    expect((await signIn(member)).json()).toMatchObject({ code: 'TOTP_REQUIRED' });
    nextStep();
    const off = await post(
      '/v2/auth/totp/disable',
      { code: codeFor(setup) },
      { authorization: `Bearer ${pair.accessToken}` },
    );
    expect(off.statusCode).toBe(409);
    expect(off.json().code).toBe('TOTP_REQUIRED_BY_ORGANIZATION');
    // Another organisation's people are not affected.
    expect((await signIn(await staff())).json()).toHaveProperty('accessToken');
  });
});

describe('bad input on the TOTP endpoints', () => {
  it.each([
    ['/v2/auth/totp/enable', { code: '12345' }, 'code'],
    ['/v2/auth/totp/enable', { code: 'abcdef' }, 'code'],
    ['/v2/auth/totp/disable', {}, 'code'],
    ['/v2/auth/totp/verify', { code: '123456' }, 'challenge'],
    ['/v2/auth/totp/verify', { challenge: 'x'.repeat(43), code: 123456 }, 'code'],
    ['/v2/auth/totp/enrol', { challenge: 'short' }, 'challenge'],
  ])('%s %j is a 400 naming %s', async (url, payload, field) => {
    const user = await staff();
    const res = await post(url, payload, user.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('refuses a forged challenge and a setup without sign-in', async () => {
    const forged = await post('/v2/auth/totp/verify', {
      challenge: 'x'.repeat(43),
      code: '123456',
    });
    expect(forged.json()).toMatchObject({ statusCode: 401, code: 'INVALID_CHALLENGE' });
    const enrol = await post('/v2/auth/totp/enrol', { challenge: 'x'.repeat(43) });
    expect(enrol.json()).toMatchObject({ statusCode: 401, code: 'INVALID_CHALLENGE' });
    expect((await post('/v2/auth/totp/setup', {})).statusCode).toBe(401);
    const enable = await post('/v2/auth/totp/enable', { code: '123456' }, (await staff()).headers);
    expect(enable.json().code).toBe('TOTP_NOT_SET_UP');
  });
});
