import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWebhookFixture } from '../testing/webhooks.js';
import { createSiteFixture } from '../testing/sites.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type GatewayRecord,
  type UserRecord,
} from '../testing/factories.js';
import type { Fixtures } from './json-schema.js';
import { problemOf, runCases } from './run-cases.js';
import {
  casesFor,
  type OpenApiDoc,
  type Operation,
  operationsOf,
  type RobustCase,
} from './variants.js';

/**
 * Every operation of /v2/openapi.json (the gateway route included) gets the bad-input variants of
 * ./variants.ts as an ORGANIZATION_OWNER, without a token, and through the read-only demo scope.
 * Never a 5xx; every 4xx has the error shape; a schema-invalid request is a 400 naming the field.
 */
let t: TestApp;
let ops: Operation[];
let fixtures: Fixtures;
let owner: UserRecord;
let platformOwner: UserRecord;
let family: UserRecord;
let gateway: GatewayRecord;

// The live stream never ends for an authorised caller; it has no parameters or body to vary anyway.
const STREAMING = new Set(['GET /v3/live']);
// Signing in (and its second step) and refreshing need no bearer token; everything else (sign-out
// included) does.
const PUBLIC = new Set([
  'POST /v2/auth/signIn',
  'POST /v2/auth/refresh',
  'POST /v2/auth/totp/enrol',
  'POST /v2/auth/totp/verify',
  // Passkeys: signing in with one, and a sign-in's second step answered or enrolled with one.
  'POST /v2/auth/passkey/signIn/options',
  'POST /v2/auth/passkey/signIn',
  'POST /v2/auth/passkey/verify/options',
  'POST /v2/auth/passkey/verify',
  'POST /v2/auth/passkey/enrol/options',
  'POST /v2/auth/passkey/enrol',
  'GET /v2/auth/oidc/start',
  'GET /v2/auth/oidc/callback',
  'POST /v2/auth/oidc/exchange',
]);
// Email-link and phone-code sign-in, and the list of methods for the login page.
for (const op of [
  'GET /v2/auth/methods',
  'POST /v2/auth/emailLink',
  'POST /v2/auth/emailLink/verify',
  'POST /v2/auth/phoneCode',
  'POST /v2/auth/phoneSignIn',
  // "パスワードを忘れた場合": asked and used before there is a session (the mailed link is the credential).
  'POST /v2/auth/passwordReset',
  'POST /v2/auth/passwordReset/confirm',
]) {
  PUBLIC.add(op);
}
// An invitation link is its own credential: the /verify page inspects it and registers with it.
for (const op of ['POST /v2/user/invitation/inspect', 'POST /v2/user/register']) PUBLIC.add(op);
// Twilio's status callback carries no bearer token: X-Twilio-Signature proves it (403 otherwise).
PUBLIC.add('POST /v2/notifications/twilio/status');
// So are Slack's, the LINE WORKS bot's and LINE's callbacks: X-Slack-Signature / X-WORKS-Signature /
// X-Line-Signature prove them (403 otherwise).
PUBLIC.add('POST /v2/chat/slack/{organizationId}');
PUBLIC.add('POST /v2/chat/lineWorks/{organizationId}');
PUBLIC.add('POST /v2/chat/line/{organizationId}');
// So is an email-change link (/verify-email), which may be opened on another device.
PUBLIC.add('POST /v2/auth/emailChange/confirm');
// A phone enrolling as a gateway has no session yet: its one-time code is the credential.
PUBLIC.add('POST /v2/phone/enrol');
// An enrolled phone's calls (issue 34): no bearer token; the handler checks the gateway credential after the
// body, so a bad body is a 400 and a good one without the credential a 401 (phone-carrier.test.ts).
for (const op of [
  'GET /v2/phone/wearers',
  'PUT /v2/phone/carrier',
  'POST /v2/phone/deliveryFailure',
])
  PUBLIC.add(op);
// Hundreds of cases per test, and more with every endpoint: beyond the default 30 s on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const isPublic = (op: Operation) => PUBLIC.has(`${op.method} ${op.path}`);
const isGateway = (op: Operation) => op.path.startsWith('/gateway/');

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrganization(t);
  const group = await createGroup(t, { organizationId: org.id });
  const wearer = await createWearer(t, { organizationId: org.id, groupId: group.id });
  gateway = await createGateway(t, { organizationId: org.id, groupId: group.id });
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  platformOwner = await createUser(t, { role: 'ALL_OWNER' });
  family = await createUser(t, { role: 'PERSONAL', linkedWearerIds: [wearer.uid] });
  // The demo scope needs a demo organisation with an owner (another test file may have made one first).
  const demo = await createOrganization(t, { isDemo: true });
  await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: demo.id });
  fixtures = {
    now: new Date().toISOString(),
    id: org.id,
    clientId: org.id,
    organizationId: org.id,
    groupId: group.id,
    uid: wearer.uid,
    userId: owner.uid,
    serialNumber: wearer.bracelet.serialNumber,
    // Never the owner's real refresh token: signing it out would end the session the suite uses.
    refreshToken: 'not-a-refresh-token',
    email: 'nobody@example.test',
    ...(await createWebhookFixture(t, org.id)),
    ...(await createSiteFixture(t, org.id)),
  };
  const res = await t.app.inject({ url: '/v2/openapi.json' });
  ops = operationsOf(res.json<OpenApiDoc>());
});
afterAll(() => t?.close());

/** Operations only platform staff may call at all (an organisation's owner gets 403 before validation). */
const PLATFORM_OPS = new Set(['POST /v2/client', 'GET /v2/users']);
/** Operations only a family member may call (their notice choice): a PERSONAL user linked to the wearer. */
const FAMILY_OPS = new Set(['GET /v3/user/familyNotices', 'PUT /v3/user/familyNotices/{uid}']);
const authOf = (op: Operation): Record<string, string> =>
  isGateway(op)
    ? { authorization: `Gateway ${gateway.id}:${gateway.credential}` }
    : PLATFORM_OPS.has(`${op.method} ${op.path}`)
      ? platformOwner.headers
      : FAMILY_OPS.has(`${op.method} ${op.path}`)
        ? family.headers
        : owner.headers;

/** Signing out ends the caller's session: each such case gets a user of its own. */
async function withOwnSessions(cases: RobustCase[]): Promise<RobustCase[]> {
  return Promise.all(
    cases.map(async (c) => {
      // Each call that may end the caller's sessions (sign out, everywhere, a new password) gets a user of its own.
      const endsSessions = [
        '/v2/auth/signOut',
        '/v2/user/sessions/signOutEverywhere',
        '/v2/user/account/password',
      ].some((p) => c.url.startsWith(p));
      if (!endsSessions || !c.headers.authorization?.startsWith('Bearer ')) return c;
      const user = await createUser(t, {
        role: 'ORGANIZATION_OWNER',
        organizationId: owner.organizationId,
      });
      return { ...c, headers: { ...c.headers, ...user.headers } };
    }),
  );
}

function report(problems: (string | null)[]): string[] {
  return problems.filter((p): p is string => p !== null);
}

describe('bad input never gets a 5xx', () => {
  it('covers every operation of the OpenAPI document, the gateway route included', () => {
    const names = ops.map((o) => `${o.method} ${o.path}`);
    expect(names.length).toBeGreaterThan(20);
    expect(names).toContain('POST /gateway/v1/batches');
    expect(names).toContain('PATCH /v2/client/{clientId}/users/alertSettings/bulk');
  });

  it('as an ORGANIZATION_OWNER (the gateway route with its own credential): 4xx naming the field', async () => {
    const cases = ops
      .filter((o) => !STREAMING.has(`${o.method} ${o.path}`))
      .flatMap((op) => casesFor(op, { fixtures, auth: authOf(op), nulRefused: !isGateway(op) }));
    expect(cases.length).toBeGreaterThan(300);
    const outcomes = await runCases(t.app, await withOwnSessions(cases));
    expect(report(outcomes.map((o) => problemOf(o))), 'failing cases').toEqual([]);
    // The suite can fail: invalid cases really were answered 400 (not skipped).
    expect(
      outcomes.filter((o) => o.c.expect === 'invalid' && o.status === 400).length,
    ).toBeGreaterThan(200);
  });

  it('without a token: 401 on every protected operation whatever the input; public ones still never 5xx', async () => {
    const byOp = ops.map((op) => ({
      op,
      cases: casesFor(op, { fixtures, auth: {}, nulRefused: !isGateway(op) }),
    }));
    const problems: (string | null)[] = [];
    for (const { op, cases } of byOp) {
      const outcomes = await runCases(t.app, cases);
      // A path the router cannot match (`../`, over its length limit) is a 404/414 before any authentication.
      const routed = (c: RobustCase) =>
        !/^path \w+ (\.\.\/|1000 chars|bad %-encoding)/.test(c.what);
      problems.push(
        ...outcomes.map((o) => problemOf(o, isPublic(op) || !routed(o.c) ? undefined : 401)),
      );
    }
    expect(report(problems), 'failing cases').toEqual([]);
  });

  it('with a garbage or foreign bearer token: 401, never a 5xx', async () => {
    const tokens = [
      'Bearer ',
      'Bearer x.y.z',
      `Bearer ${'a'.repeat(5000)}`,
      'Basic Zm9vOmJhcg==',
      `Bearer ${owner.accessToken}x`,
    ];
    const cases: RobustCase[] = ops
      .filter((op) => !isPublic(op))
      .flatMap((op) =>
        tokens.map((authorization) => ({
          ...casesFor(op, { fixtures, auth: { authorization } })[0]!,
          what: `auth ${authorization.slice(0, 20)}`,
        })),
      );
    const outcomes = await runCases(t.app, cases);
    expect(report(outcomes.map((o) => problemOf(o, 401))), 'failing cases').toEqual([]);
  });

  it('the gateway route refuses malformed or wrong gateway credentials with 401', async () => {
    const { id, credential } = gateway;
    const headers = [
      'Gateway',
      'Gateway :',
      `Gateway ${id}:`,
      `Gateway :${credential}`,
      `Gateway ${id}:${credential}x`,
      `Gateway ${id.toUpperCase()}:${credential}`,
      `Gateway ${'a'.repeat(10_000)}:${credential}`,
      `Gateway ${id}:${'c'.repeat(10_000)}`,
      `Gateway ${id}:${credential}:extra`,
      `gateway ${id}:${credential}`,
      `Gateway gw-does-not-exist:${credential}`,
      `Gateway ${id}%00:${credential}`,
      owner.headers.authorization,
    ];
    const cases: RobustCase[] = headers.map((authorization) => ({
      what: `gateway auth ${authorization.slice(0, 30)}`,
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization, 'content-type': 'application/json' },
      payload: JSON.stringify({ readings: [] }),
      expect: 'rejected',
    }));
    const outcomes = await runCases(t.app, cases);
    expect(report(outcomes.map((o) => problemOf(o, 401))), 'failing cases').toEqual([]);
  });

  it('the live stream refuses bad tickets and tokens in the URL before it opens (never a 5xx, never a stream)', async () => {
    const queries = [
      '',
      '?ticket=',
      '?ticket=x',
      `?ticket=${'a'.repeat(10_000)}`,
      '?ticket=a&ticket=b',
      '?ticket=a%00b',
      '?ticket[a]=1',
      // A valid access token in the URL is no longer accepted (it would be logged).
      `?access_token=${owner.accessToken}`,
      '?access_token=',
      '?access_token=x.y.z',
      `?access_token=${'a'.repeat(10_000)}`,
      `?access_token=${owner.accessToken}&access_token=${owner.accessToken}`,
      `?access_token=${owner.refreshToken}`,
      '?access_token=a%00b',
      '?access_token[a]=1',
    ];
    const cases: RobustCase[] = queries.flatMap((q) =>
      ['/v3/live', '/demo-api/v3/live'].map((path) => ({
        what: 'live token',
        method: 'GET',
        url: `${path}${q}`,
        headers: {},
        expect: 'rejected' as const,
      })),
    );
    const outcomes = await runCases(t.app, cases);
    expect(report(outcomes.map((o) => problemOf(o))), 'failing cases').toEqual([]);
  });

  it('signing in with a forged X-Forwarded-For of any length is a 401 or 429, never a 5xx', async () => {
    const forwarded = [
      randomBytes(6000).toString('base64'),
      `1.2.3.4, ${randomBytes(3000).toString('hex')}`,
      ',,,',
      ' ',
      '💥',
    ];
    const cases: RobustCase[] = forwarded.map((xff, i) => ({
      what: `x-forwarded-for ${xff.slice(0, 20)}`,
      method: 'POST',
      url: '/v2/auth/signIn',
      headers: { 'x-forwarded-for': xff, 'content-type': 'application/json' },
      // A different account each time, so the per-account limit does not answer 429 first.
      payload: JSON.stringify({
        email: `forged-${i}-${Date.now()}@example.test`,
        password: 'wrong',
      }),
      expect: 'rejected',
    }));
    const outcomes = await runCases(t.app, cases);
    // 429 when the forged value falls back to this test's address, which earlier tests already limited.
    const wrong = outcomes.filter((o) => o.status !== 401 && o.status !== 429);
    expect(report(outcomes.map((o) => problemOf(o))), 'failing cases').toEqual([]);
    expect(wrong.map((o) => `${o.c.what} -> ${o.status}`)).toEqual([]);
  });

  it('other HTTP methods on every path: never a 5xx', async () => {
    const methods = ['HEAD', 'OPTIONS', 'DELETE', 'PUT', 'PATCH', 'POST', 'TRACE'];
    const cases: RobustCase[] = ops
      .filter((op) => !STREAMING.has(`${op.method} ${op.path}`))
      .flatMap((op) => {
        const base = casesFor(op, { fixtures, auth: authOf(op) })[0]!;
        return methods
          .filter((m) => m !== op.method && !ops.some((o) => o.path === op.path && o.method === m))
          .map((method) => ({
            ...base,
            what: `method ${method}`,
            method,
            expect: 'safe' as const,
          }));
      });
    const outcomes = await runCases(t.app, cases);
    expect(report(outcomes.map((o) => problemOf(o))), 'failing cases').toEqual([]);
  });

  it('refuses a body over the 5 MB limit with 413', async () => {
    const big = JSON.stringify({ alertIds: ['x'], pad: 'p'.repeat(6 * 1024 * 1024) });
    const cases: RobustCase[] = [
      { url: '/v2/alert/batchConfirm', headers: owner.headers },
      {
        url: '/gateway/v1/batches',
        headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
      },
    ].map(({ url, headers }) => ({
      what: '6 MB body',
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: big,
      expect: 'rejected',
    }));
    const outcomes = await runCases(t.app, cases);
    expect(report(outcomes.map((o) => problemOf(o, 413))), 'failing cases').toEqual([]);
  });

  it('the monitoring tunnel refuses bad query and bodies with a 4xx', async () => {
    const url = (q: string) => `/monitoring${q}`;
    const cases: RobustCase[] = [
      ['', 'x'],
      ['?o=1', 'x'],
      ['?o=abc&p=1', 'x'],
      ['?o=1&o=2&p=1', 'x'],
      [`?o=${'9'.repeat(1000)}&p=1`, 'x'],
      ['?o=1&p=1', ''],
      ['?o=1&p=1', 'not an envelope'],
      ['?o=1&p=1', '{"dsn":"https://k@o2.ingest.example/3"}\n{}'],
      ['?o=1&p=1', `{"dsn":"${'x'.repeat(10_000)}"}`],
    ].map(([q, payload]) => ({
      what: 'monitoring',
      method: 'POST',
      url: url(q!),
      headers: { 'content-type': 'application/x-sentry-envelope' },
      payload: payload!,
      expect: 'rejected' as const,
    }));
    cases.push({
      what: 'monitoring json',
      method: 'POST',
      url: url('?o=1&p=1'),
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
      expect: 'rejected',
    });
    const outcomes = await runCases(t.app, cases);
    expect(report(outcomes.map((o) => problemOf(o))), 'failing cases').toEqual([]);
    // An envelope may carry binary items (session replays) with zero bytes: still relayed, not refused.
    const binary = await t.app.inject({
      method: 'POST',
      url: url('?o=1&p=1'),
      headers: { 'content-type': 'application/x-sentry-envelope' },
      payload: `{"event_id":"${'a'.repeat(32)}"}\n{"type":"replay_recording","length":3}\n\u0000\u0001\u0000`,
    });
    expect(binary.statusCode, binary.body).toBe(202);
  });
});

describe('the demo scope', () => {
  const demoOps = () =>
    ops.filter((o) => /^\/v[23]\//.test(o.path) && !STREAMING.has(`${o.method} ${o.path}`));

  it('refuses every non-GET under /demo-api with 403 DEMO_READ_ONLY whatever the body', async () => {
    const writes = demoOps().filter((o) => o.method !== 'GET');
    expect(writes.length).toBeGreaterThan(5);
    const cases = writes.flatMap((op) =>
      casesFor(op, { fixtures, auth: {} })
        .filter((c) => !c.what.startsWith('path') && !c.what.startsWith('query'))
        .map((c) => ({ ...c, url: `/demo-api${c.url}` })),
    );
    // And with a real owner's token: the demo prefix still wins.
    cases.push(
      ...writes.map((op) => ({
        ...casesFor(op, { fixtures, auth: owner.headers })[0]!,
        url: `/demo-api${op.path}`,
      })),
    );
    const outcomes = await runCases(t.app, cases);
    const problems = outcomes.map((o) => {
      const p = problemOf(o, 403);
      if (p) return p;
      return o.body.includes('"DEMO_READ_ONLY"')
        ? null
        : `${o.c.method} ${o.c.url} [${o.c.what}] -> 403 without DEMO_READ_ONLY: ${o.body}`;
    });
    expect(report(problems), 'failing cases').toEqual([]);
  });

  it('answers every bad GET under /demo-api with a 4xx, never a 5xx', async () => {
    // The demo acts as an organisation owner: platform-only reads are 403 before validation (their role tables test them).
    const cases = demoOps()
      .filter((o) => o.method === 'GET' && !PLATFORM_OPS.has(`${o.method} ${o.path}`))
      .flatMap((op) =>
        casesFor(op, { fixtures, auth: {} }).map((c) => ({ ...c, url: `/demo-api${c.url}` })),
      );
    const outcomes = await runCases(t.app, cases);
    expect(report(outcomes.map((o) => problemOf(o))), 'failing cases').toEqual([]);
  });
});
