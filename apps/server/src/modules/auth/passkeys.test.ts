import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URI } from 'otpauth';
import type {
  MfaChallenge,
  PasskeyList,
  PasskeyView,
  TokenPair,
  TotpSetupResponse,
} from '@wearable/domain';
import {
  createOrganization,
  createUser,
  FACTORY_PASSWORD,
  type UserRecord,
} from '../../testing/factories.js';
import {
  type CreationOptionsLike,
  type RequestOptionsLike,
  softwareAuthenticator,
} from '../../testing/software-authenticator.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { relyingPartyOf } from './relying-party.js';

/**
 * Passkeys told as stories through the real server: the answers come from a software authenticator
 * (real ES256 keys and signatures), so @simplewebauthn/server's verification runs as in production.
 */
let t: TestApp;
let origin: string;
let clock = Date.now();
const DAY = 86_400_000;
beforeAll(async () => {
  t = await createTestApp();
  t.ctx.now = () => new Date(clock);
  origin = relyingPartyOf(t.ctx.config.publicUrl).origins[0] ?? '';
});
afterAll(() => t.close());

let address = 0;
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers,
    remoteAddress: `10.8.0.${++address % 250}`,
  });
const bearer = (pair: TokenPair) => ({ authorization: `Bearer ${pair.accessToken}` });
const signIn = (user: UserRecord) =>
  post('/v2/auth/signIn', { email: user.email, password: FACTORY_PASSWORD });

async function staff(organizationId?: string) {
  const orgId = organizationId ?? (await createOrganization(t)).id;
  return createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: orgId });
}

/** Registers a passkey on the account page's endpoints; the authenticator keeps it. */
async function addPasskey(
  user: UserRecord,
  device = softwareAuthenticator(origin),
  name = '仕事用PC',
) {
  const options = await post('/v2/auth/passkeys/options', {}, user.headers);
  expect(options.statusCode, options.body).toBe(200);
  const response = device.register(options.json<CreationOptionsLike>());
  const created = await post('/v2/auth/passkeys', { name, response }, user.headers);
  expect(created.statusCode, created.body).toBe(201);
  return { device, passkey: created.json<PasskeyView>() };
}

/** The options as the authenticator reads them (and the fields the tests look at). */
type Creation = CreationOptionsLike & { excludeCredentials?: unknown[] };
const creationOptions = async (headers: Record<string, string>) =>
  (await post('/v2/auth/passkeys/options', {}, headers)).json<Creation>();
const signInOptions = async () =>
  (await post('/v2/auth/passkey/signIn/options', {})).json<RequestOptionsLike>();

const list = async (headers: Record<string, string>) =>
  (await t.app.inject({ url: '/v2/auth/passkeys', headers })).json<PasskeyList>();

describe('registering a passkey', () => {
  it('asks for a discoverable credential with user verification, and lists it by its name', async () => {
    const user = await staff();
    const options = await creationOptions(user.headers);
    expect(options).toMatchObject({
      rp: { id: 'localhost' },
      user: { id: Buffer.from(user.uid).toString('base64url') },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      attestation: 'none',
    });
    const device = softwareAuthenticator(origin);
    const created = await post(
      '/v2/auth/passkeys',
      { name: '  仕事用PC  ', response: device.register(options) },
      user.headers,
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: '仕事用PC', lastUsedAt: null });
    const mine = await list(user.headers);
    expect(mine.passkeys.map((p) => p.name)).toEqual(['仕事用PC']);
    expect(mine.secondFactor).toEqual({ required: false, enrolled: true, enrolBy: null });
    // The next options leave out the one registered, so the same authenticator is not added twice.
    const again = await creationOptions(user.headers);
    expect(again.excludeCredentials).toEqual([
      {
        id: mine.passkeys.length === 1 ? device.credentials[0]?.id.toString('base64url') : '',
        type: 'public-key',
        transports: ['internal'],
      },
    ]);
  });

  it('refuses a replayed, a foreign or a wrong answer with a 4xx naming what is wrong', async () => {
    const user = await staff();
    const device = softwareAuthenticator(origin);
    const options = await creationOptions(user.headers);
    const response = device.register(options);
    expect(
      (await post('/v2/auth/passkeys', { name: 'a', response }, user.headers)).statusCode,
    ).toBe(201);
    // The same answer again: its challenge is used up.
    const replay = await post('/v2/auth/passkeys', { name: 'b', response }, user.headers);
    expect(replay.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_CHALLENGE_INVALID' });
    // A challenge the server never handed out.
    const forged = await post(
      '/v2/auth/passkeys',
      { name: 'c', response: device.register(options, { challenge: 'bm90LWlzc3VlZC1ieS11cw' }) },
      user.headers,
    );
    expect(forged.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_CHALLENGE_INVALID' });
    // Another person's challenge.
    const other = await staff();
    const theirs = await creationOptions(other.headers);
    const stolen = await post(
      '/v2/auth/passkeys',
      { name: 'd', response: device.register(theirs) },
      user.headers,
    );
    expect(stolen.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_CHALLENGE_INVALID' });
    // Made on another site (phishing): the origin is wrong.
    const fresh = await creationOptions(user.headers);
    const phished = await post(
      '/v2/auth/passkeys',
      { name: 'e', response: device.register(fresh, { origin: 'https://evil.example' }) },
      user.headers,
    );
    expect(phished.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_VERIFICATION_FAILED' });
    expect(phished.json().message).toContain('origin');
    // Without user verification.
    const touched = await creationOptions(user.headers);
    const unverified = await post(
      '/v2/auth/passkeys',
      { name: 'f', response: device.register(touched, { userVerified: false }) },
      user.headers,
    );
    expect(unverified.json()).toMatchObject({
      statusCode: 401,
      code: 'PASSKEY_VERIFICATION_FAILED',
    });
    expect((await list(user.headers)).passkeys).toHaveLength(1);
  });

  it('refuses an expired challenge', async () => {
    const user = await staff();
    const options = await creationOptions(user.headers);
    clock += 301_000;
    const late = await post(
      '/v2/auth/passkeys',
      { name: 'late', response: softwareAuthenticator(origin).register(options) },
      user.headers,
    );
    expect(late.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_CHALLENGE_INVALID' });
  });
});

describe('signing in with a passkey, no name typed', () => {
  it('gives the same token pair as every sign-in, once per challenge', async () => {
    const user = await staff();
    const { device, passkey } = await addPasskey(user);
    const options = await post('/v2/auth/passkey/signIn/options', {});
    expect(options.statusCode).toBe(200);
    expect(options.json()).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.json().allowCredentials ?? []).toEqual([]);
    const response = device.assert(options.json<RequestOptionsLike>());
    const ok = await post('/v2/auth/passkey/signIn', { response });
    expect(ok.statusCode, ok.body).toBe(200);
    const pair = ok.json<TokenPair>();
    expect(pair).toMatchObject({ tokenType: 'Bearer', refreshToken: expect.any(String) });
    const me = await t.app.inject({ url: '/v2/user', headers: bearer(pair) });
    expect(me.statusCode).toBe(200);
    expect(me.json().uid ?? me.json().id).toBe(user.uid);
    const used = (await list(user.headers)).passkeys.find((p) => p.id === passkey.id);
    expect(used?.lastUsedAt).not.toBeNull();

    // Replayed: the challenge is gone.
    const replay = await post('/v2/auth/passkey/signIn', { response });
    expect(replay.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_CHALLENGE_INVALID' });
    // Signed with another key, or without user verification: refused, named.
    const again = await signInOptions();
    const forged = await post('/v2/auth/passkey/signIn', {
      response: device.assert(again, { wrongKey: true }),
    });
    expect(forged.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_VERIFICATION_FAILED' });
    const third = await signInOptions();
    const unverified = await post('/v2/auth/passkey/signIn', {
      response: device.assert(third, { userVerified: false }),
    });
    expect(unverified.json()).toMatchObject({
      statusCode: 401,
      code: 'PASSKEY_VERIFICATION_FAILED',
    });
  });

  it('knows no passkey that was never registered, and no challenge for another purpose', async () => {
    const stranger = softwareAuthenticator(origin);
    stranger.register({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'bm9ib2R5' } });
    const options = await signInOptions();
    const unknown = await post('/v2/auth/passkey/signIn', { response: stranger.assert(options) });
    expect(unknown.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_UNKNOWN' });
    // A registration challenge does not sign anyone in.
    const user = await staff();
    const { device } = await addPasskey(user);
    const registering = await creationOptions(user.headers);
    const wrongKind = await post('/v2/auth/passkey/signIn', {
      response: device.assert({ challenge: registering.challenge, rpId: 'localhost' }),
    });
    expect(wrongKind.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_CHALLENGE_INVALID' });
  });
});

describe('a passkey as the second factor after a password', () => {
  it('turns password sign-in into a PASSKEY_REQUIRED step one assertion completes', async () => {
    const user = await staff();
    const { device } = await addPasskey(user);
    const first = (await signIn(user)).json<MfaChallenge>();
    expect(first).toMatchObject({
      mfaRequired: true,
      code: 'PASSKEY_REQUIRED',
      factors: ['passkey'],
    });
    // A TOTP code cannot answer it (the account has none).
    const code = await post('/v2/auth/totp/verify', { challenge: first.challenge, code: '123456' });
    expect(code.json().code).toBe('INVALID_CHALLENGE');
    const options = await post('/v2/auth/passkey/verify/options', { challenge: first.challenge });
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json().allowCredentials).toHaveLength(1);
    const response = device.assert(options.json<RequestOptionsLike>());
    const done = await post('/v2/auth/passkey/verify', { challenge: first.challenge, response });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toHaveProperty('accessToken');
    // The step is used up.
    const replay = await post('/v2/auth/passkey/verify', { challenge: first.challenge, response });
    expect(replay.json()).toMatchObject({ statusCode: 401, code: 'INVALID_CHALLENGE' });
  });

  it('lets an account with TOTP and a passkey answer TOTP_REQUIRED with either', async () => {
    const user = await staff();
    const setup = (await post('/v2/auth/totp/setup', {}, user.headers)).json<TotpSetupResponse>();
    clock += 30_000;
    const codeNow = () => URI.parse(setup.otpauthUri).generate({ timestamp: clock });
    await post('/v2/auth/totp/enable', { code: codeNow() }, user.headers);
    const { device } = await addPasskey(user);
    const first = (await signIn(user)).json<MfaChallenge>();
    expect(first).toMatchObject({ code: 'TOTP_REQUIRED', factors: ['totp', 'passkey'] });
    const options = (
      await post('/v2/auth/passkey/verify/options', { challenge: first.challenge })
    ).json<RequestOptionsLike>();
    const done = await post('/v2/auth/passkey/verify', {
      challenge: first.challenge,
      response: device.assert(options),
    });
    expect(done.statusCode, done.body).toBe(200);
    // And the code still works at the next sign-in.
    const second = (await signIn(user)).json<MfaChallenge>();
    clock += 30_000;
    const byCode = await post('/v2/auth/totp/verify', {
      challenge: second.challenge,
      code: codeNow(),
    });
    expect(byCode.statusCode, byCode.body).toBe(200);
  });

  it('refuses another account’s passkey and an assertion for another step', async () => {
    const user = await staff();
    await addPasskey(user);
    const other = await staff();
    const { device: theirs } = await addPasskey(other);
    const { challenge } = (await signIn(user)).json<MfaChallenge>();
    const options = (
      await post('/v2/auth/passkey/verify/options', { challenge })
    ).json<RequestOptionsLike>();
    const wrong = await post('/v2/auth/passkey/verify', {
      challenge,
      response: theirs.assert({ challenge: options.challenge, rpId: 'localhost' }),
    });
    expect(wrong.json()).toMatchObject({ statusCode: 401, code: 'PASSKEY_UNKNOWN' });
    // An account without passkeys cannot ask for passkey options.
    const plain = await staff();
    const withTotp = (
      await post('/v2/auth/totp/setup', {}, plain.headers)
    ).json<TotpSetupResponse>();
    clock += 30_000;
    await post(
      '/v2/auth/totp/enable',
      { code: URI.parse(withTotp.otpauthUri).generate({ timestamp: clock }) },
      plain.headers,
    );
    const step = (await signIn(plain)).json<MfaChallenge>();
    expect(step.factors).toEqual(['totp']);
    const none = await post('/v2/auth/passkey/verify/options', { challenge: step.challenge });
    expect(none.json()).toMatchObject({ statusCode: 409, code: 'NO_PASSKEY' });
    const forged = await post('/v2/auth/passkey/verify/options', { challenge: 'x'.repeat(43) });
    expect(forged.json()).toMatchObject({ statusCode: 401, code: 'INVALID_CHALLENGE' });
  });
});

describe('removing a passkey', () => {
  it('removes one’s own, and never another person’s (404)', async () => {
    const user = await staff();
    const { passkey } = await addPasskey(user);
    const other = await staff();
    const theirs = await t.app.inject({
      method: 'DELETE',
      url: `/v2/auth/passkeys/${passkey.id}`,
      headers: other.headers,
    });
    expect(theirs.json()).toMatchObject({ statusCode: 404, code: 'PASSKEY_NOT_FOUND' });
    expect((await list(user.headers)).passkeys).toHaveLength(1);
    const mine = await t.app.inject({
      method: 'DELETE',
      url: `/v2/auth/passkeys/${passkey.id}`,
      headers: user.headers,
    });
    expect(mine.statusCode).toBe(204);
    expect((await list(user.headers)).passkeys).toEqual([]);
    // The password alone signs in again, and the removed passkey no longer does.
    expect((await signIn(user)).json()).toHaveProperty('accessToken');
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/v2/auth/passkeys/${passkey.id}`,
      headers: user.headers,
    });
    expect(gone.statusCode).toBe(404);
    const noSession = await t.app.inject({
      method: 'DELETE',
      url: `/v2/auth/passkeys/${passkey.id}`,
    });
    expect(noSession.statusCode).toBe(401);
  });
});

describe('the organisation requires a second factor of its staff', () => {
  it('lets staff without one sign in during the grace period, told to enrol, then makes them enrol', async () => {
    const org = await createOrganization(t);
    const owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
    const member = await staff(org.id);
    const family = await createUser(t, { role: 'PERSONAL', organizationId: org.id });
    const on = await t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${org.id}/signInSettings`,
      headers: owner.headers,
      payload: { requireSecondFactor: true, secondFactorGraceDays: 7 },
    });
    expect(on.statusCode, on.body).toBe(200);
    const graceEndsAt = new Date(clock + 7 * DAY).toISOString();
    expect(on.json()).toEqual({
      requireTotp: false,
      requireSecondFactor: true,
      secondFactorGraceDays: 7,
      secondFactorGraceEndsAt: graceEndsAt,
    });

    // In the grace period: tokens, and the date to enrol by.
    const during = await signIn(member);
    expect(during.json()).toMatchObject({
      accessToken: expect.any(String),
      secondFactorEnrolBy: graceEndsAt,
    });
    expect((await list(member.headers)).secondFactor).toEqual({
      required: true,
      enrolled: false,
      enrolBy: graceEndsAt,
    });
    // A family member is not staff: not asked.
    const familyIn = await signIn(family);
    expect(familyIn.json()).toHaveProperty('accessToken');
    expect(familyIn.json()).not.toHaveProperty('secondFactorEnrolBy');

    // After it: sign-in asks to enrol, a passkey or TOTP.
    clock += 8 * DAY;
    const after = (await signIn(member)).json<MfaChallenge>();
    expect(after).toMatchObject({
      mfaRequired: true,
      code: 'SECOND_FACTOR_ENROLMENT_REQUIRED',
      factors: [],
    });
    const options = await post('/v2/auth/passkey/enrol/options', { challenge: after.challenge });
    expect(options.statusCode, options.body).toBe(200);
    const device = softwareAuthenticator(origin);
    const enrolled = await post('/v2/auth/passkey/enrol', {
      challenge: after.challenge,
      name: 'スマートフォン',
      response: device.register(options.json<CreationOptionsLike>()),
    });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    const pair = enrolled.json<TokenPair>();
    expect((await list(bearer(pair))).passkeys.map((p) => p.name)).toEqual(['スマートフォン']);
    // The last passkey cannot be removed while it is the only factor.
    const [only] = (await list(bearer(pair))).passkeys;
    const remove = await t.app.inject({
      method: 'DELETE',
      url: `/v2/auth/passkeys/${only?.id}`,
      headers: bearer(pair),
    });
    expect(remove.json()).toMatchObject({
      statusCode: 409,
      code: 'SECOND_FACTOR_REQUIRED_BY_ORGANIZATION',
    });
    // From now on the passkey is asked for after the password.
    expect((await signIn(member)).json()).toMatchObject({ code: 'PASSKEY_REQUIRED' });

    // Another member enrols TOTP instead, with the same kind of challenge.
    const colleague = await staff(org.id);
    const step = (await signIn(colleague)).json<MfaChallenge>();
    expect(step.code).toBe('SECOND_FACTOR_ENROLMENT_REQUIRED');
    const setup = (
      await post('/v2/auth/totp/enrol', { challenge: step.challenge })
    ).json<TotpSetupResponse>();
    clock += 30_000;
    const done = await post('/v2/auth/totp/verify', {
      challenge: step.challenge,
      code: URI.parse(setup.otpauthUri).generate({ timestamp: clock }),
    });
    expect(done.statusCode, done.body).toBe(200);

    // Turned off (by an owner whose session is new: eight days have passed): the password alone again;
    // requireTotp was never touched.
    const later = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${org.id}/signInSettings`,
      headers: later.headers,
      payload: { requireSecondFactor: false },
    });
    expect(off.json()).toMatchObject({
      requireTotp: false,
      requireSecondFactor: false,
      secondFactorGraceEndsAt: null,
    });
    const another = await staff(org.id);
    expect((await signIn(another)).json()).not.toHaveProperty('secondFactorEnrolBy');
  });

  it('with no grace period asks at once', async () => {
    const org = await createOrganization(t);
    const owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
    await t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${org.id}/signInSettings`,
      headers: owner.headers,
      payload: { requireSecondFactor: true },
    });
    expect((await signIn(await staff(org.id))).json()).toMatchObject({
      code: 'SECOND_FACTOR_ENROLMENT_REQUIRED',
    });
    // An enrolment challenge is not a passkey step, and vice versa.
    const { challenge } = (await signIn(await staff(org.id))).json<MfaChallenge>();
    const wrong = await post('/v2/auth/passkey/verify/options', { challenge });
    expect(wrong.json()).toMatchObject({ statusCode: 401, code: 'INVALID_CHALLENGE' });
  });
});

describe('bad input on the passkey endpoints', () => {
  it.each([
    ['/v2/auth/passkeys', { name: 'x' }, 'response'],
    ['/v2/auth/passkeys', { name: '', response: {} }, 'name'],
    ['/v2/auth/passkeys', { name: 'x'.repeat(61), response: {} }, 'name'],
    ['/v2/auth/passkey/signIn', { response: { id: 'a', rawId: 'a', type: 'password' } }, 'type'],
    ['/v2/auth/passkey/signIn', { response: { id: '!!', rawId: 'a', type: 'public-key' } }, 'id'],
    ['/v2/auth/passkey/verify', { response: {} }, 'challenge'],
    ['/v2/auth/passkey/enrol/options', { challenge: 'short' }, 'challenge'],
  ])('%s %j is a 400 naming %s', async (url, payload, field) => {
    const user = await staff();
    const res = await post(url, payload, user.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('refuses clientDataJSON that is not JSON with a 400, not a 500', async () => {
    const res = await post('/v2/auth/passkey/signIn', {
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'bm90anNvbg', authenticatorData: 'AAAA', signature: 'AAAA' },
        clientExtensionResults: {},
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('clientDataJSON');
  });
});

describe('name-less sign-in options are counted per client address', () => {
  it('past SIGN_IN_ADDRESS_MAX_FAILURES in the window: 429, and no challenge row is written', async () => {
    const max = t.ctx.config.signInAddressMaxFailures;
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: '/v2/auth/passkey/signIn/options',
        payload: {},
        remoteAddress: '10.9.9.9',
      });
    for (let i = 0; i < max; i++) expect((await ask()).statusCode).toBe(200);
    const [{ n: before } = { n: 0 }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM passkey_challenges',
    );
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('TOO_MANY_ATTEMPTS');
    const [{ n: after } = { n: 0 }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM passkey_challenges',
    );
    expect(after).toBe(before);
  });
});
