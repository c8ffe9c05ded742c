import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAlert } from '../testing/world.js';
import {
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  FACTORY_PASSWORD,
  type UserRecord,
  type WearerRecord,
} from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import type { Fixtures } from './json-schema.js';
import { problemOf, runCases } from './run-cases.js';
import { casesFor, type OpenApiDoc, operationsOf, type RobustCase } from './variants.js';

/**
 * The same write sent several times at once (a double click, a retrying client, two tabs) races
 * inside the database: a unique key or a lost update must not surface as a 5xx. On PostgreSQL
 * (TEST_DATABASE_URL) these requests really run in parallel on the pool's connections.
 */
let t: TestApp;
let orgId: string;
let groupId: string;
let owner: UserRecord;
let w1: WearerRecord;
let w2: WearerRecord;
const COPIES = 6;
const allWeek = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { enabled: true, startTime: '00:00', endTime: '23:59' },
  ]),
);
const BODIES: Record<string, unknown> = {
  'PUT /v2/group/{groupId}/alertNoticeSettings': {
    recipients: [
      {
        phoneNumber: '+819012345678',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: allWeek,
        order: 1,
      },
    ],
  },
};

beforeAll(async () => {
  t = await createTestApp();
  orgId = (await createOrganization(t)).id;
  groupId = (await createGroup(t, { organizationId: orgId })).id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: orgId });
  w1 = await createWearer(t, { organizationId: orgId, groupId });
  w2 = await createWearer(t, { organizationId: orgId, groupId });
});
afterAll(() => t?.close());

const copies = (c: RobustCase) => Array.from({ length: COPIES }, () => c);
const problems = (outcomes: Awaited<ReturnType<typeof runCases>>) =>
  outcomes.map((o) => problemOf(o)).filter((p): p is string => p !== null);

describe('identical writes at the same time', () => {
  it('every write operation of the OpenAPI document answers each copy without a 5xx', async () => {
    const alertId = await insertAlert(t.db, w1, { type: 'SOS_CALL' });
    // A user who has not agreed to the terms yet, so the agreements race on their key.
    const newcomer = await createUser(t, {
      role: 'ORGANIZATION_OWNER',
      organizationId: orgId,
      agreedTerms: false,
    });
    const fixtures: Fixtures = {
      now: new Date().toISOString(),
      id: orgId,
      clientId: orgId,
      organizationId: orgId,
      groupId,
      uid: w1.uid,
      userId: owner.uid,
      alertId,
      email: owner.email,
      password: FACTORY_PASSWORD,
      // Another user's token: refreshing rotates it, and reuse would end the newcomer's session.
      refreshToken: (await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: orgId }))
        .refreshToken,
    };
    const doc = (await t.app.inject({ url: '/v2/openapi.json' })).json<OpenApiDoc>();
    const writes = operationsOf(doc).filter(
      (op) => op.method !== 'GET' && !op.path.startsWith('/gateway/'),
    );
    expect(writes.length).toBeGreaterThan(5);
    for (const op of writes) {
      // Signing out ends the caller's session: those copies race on a session of their own.
      const caller =
        op.path.endsWith('/signOut') ||
        op.path.endsWith('/signOutEverywhere') ||
        op.path.endsWith('/account/password')
          ? await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: orgId })
          : newcomer;
      const generated = casesFor(op, { fixtures, auth: caller.headers })[0];
      // A recipient needs exactly one of userId or phoneNumber, which the schema sampler cannot know.
      const body = BODIES[`${op.method} ${op.path}`];
      const base = generated && body ? { ...generated, payload: JSON.stringify(body) } : generated;
      if (!base) continue;
      const outcomes = await runCases(t.app, copies(base), COPIES);
      expect(problems(outcomes), `${op.method} ${op.path}`).toEqual([]);
      console.log(
        'STAT',
        op.method,
        op.path,
        outcomes.map((o) => o.status).join(','),
        outcomes[0]?.body.slice(0, 120),
      );
      // The copies reached the route (not all refused at the door), so the race really happened.
      // A 401 of the route's own (a wrong TOTP code, a used challenge) counts as reached.
      expect(
        outcomes.some(
          (o) => o.status !== 401 || !/"code":"(UNAUTHORIZED|INVALID_TOKEN)"/.test(o.body),
        ),
        `${op.method} ${op.path}: all 401`,
      ).toBe(true);
    }
  });

  it('leaves exactly one list when replacements of a group notice settings race', async () => {
    const body = BODIES['PUT /v2/group/{groupId}/alertNoticeSettings'];
    const put: RobustCase = {
      what: 'notice race',
      method: 'PUT',
      url: `/v2/group/${groupId}/alertNoticeSettings`,
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
      expect: 'safe',
    };
    const outcomes = await runCases(t.app, copies(put), COPIES);
    expect(problems(outcomes)).toEqual([]);
    const rows = await t.db.query(
      'SELECT id FROM group_alert_notice_settings WHERE group_id = $1',
      [groupId],
    );
    expect(rows).toHaveLength(1);
  });

  it('keeps every field when patches of different alert settings of one wearer race', async () => {
    const wearer = await createWearer(t, { organizationId: orgId, groupId });
    const patch = (settings: object): RobustCase => ({
      what: 'settings race',
      method: 'PATCH',
      url: `/v2/client/${orgId}/user/alertSetting`,
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ uid: wearer.uid, ...settings }),
      expect: 'safe',
    });
    const bulk = (settings: object): RobustCase => ({
      ...patch({}),
      url: `/v2/client/${orgId}/users/alertSettings/bulk`,
      payload: JSON.stringify({ uids: [wearer.uid], settings }),
    });
    const outcomes = await runCases(t.app, [
      patch({ heartRateLower: 50 }),
      patch({ sustainedMinutes: 7 }),
      bulk({ enabled: { SOS_CALL: false } }),
      bulk({ heartRateUpper: 170 }),
    ]);
    expect(problems(outcomes)).toEqual([]);
    expect(outcomes.map((o) => o.status)).toEqual([200, 200, 200, 200]);
    const [row] = await t.db.query<{ settings: Record<string, unknown> }>(
      'SELECT settings FROM wearer_alert_settings WHERE wearer_id = $1',
      [wearer.uid],
    );
    expect(row?.settings).toMatchObject({
      heartRateLower: 50,
      sustainedMinutes: 7,
      heartRateUpper: 170,
      enabled: { SOS_CALL: false },
    });
  });

  it('counts failed sign-ins racing on one account without a 5xx', async () => {
    const wrong: RobustCase = {
      what: 'sign-in failure race',
      method: 'POST',
      url: '/v2/auth/signIn',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: `race-${Date.now()}@example.test`, password: 'wrong' }),
      expect: 'rejected',
    };
    const outcomes = await runCases(t.app, [...copies(wrong), ...copies(wrong)], COPIES * 2);
    expect(problems(outcomes)).toEqual([]);
    expect(outcomes.every((o) => o.status === 401 || o.status === 429)).toBe(true);
  });

  it('confirms an alert once however many confirmations race', async () => {
    const alertId = await insertAlert(t.db, w2, { type: 'DETECT_FALL_DOWN' });
    const confirm: RobustCase = {
      what: 'confirm race',
      method: 'POST',
      url: '/v2/alert/batchConfirm',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ alertIds: [alertId] }),
      expect: 'safe',
    };
    const outcomes = await runCases(t.app, copies(confirm), COPIES);
    expect(problems(outcomes)).toEqual([]);
    const results = outcomes.map(
      (o) => (JSON.parse(o.body) as { results: { result: string }[] }).results[0]?.result,
    );
    expect(results.filter((r) => r === 'confirmed')).toHaveLength(1);
    expect(results.filter((r) => r !== 'confirmed').every((r) => r === 'already_confirmed')).toBe(
      true,
    );
  });

  it('stores a gateway batch once when it is sent several times at once', async () => {
    // A wearer of its own: the first test sends every write of the API at w1 (unlink, remove…).
    const w1 = await createWearer(t, { organizationId: orgId, groupId });
    const at = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    const serial = w1.bracelet.serialNumber;
    const batch: RobustCase = {
      what: 'gateway race',
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: {
        authorization: `Gateway ${w1.gateway.id}:${w1.gateway.credential}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        readings: [1, 2, 3].map((m) => ({ serialNumber: serial, at: at(m), heartRate: 70 + m })),
        events: [{ serialNumber: serial, type: 'SOS', at: at(1) }],
      }),
      expect: 'safe',
    };
    const outcomes = await runCases(t.app, copies(batch), COPIES);
    expect(problems(outcomes)).toEqual([]);
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    const accepted = outcomes.reduce(
      (n, o) => n + (JSON.parse(o.body) as { accepted: number }).accepted,
      0,
    );
    expect(accepted, outcomes[0]?.body).toBe(4);
    const [readings] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM readings WHERE bracelet_id = $1',
      [w1.bracelet.id],
    );
    const sos = await t.db.query<{ id: string }>(
      "SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'",
      [w1.uid],
    );
    expect(readings?.n).toBe(3);
    expect(sos.length).toBeLessThanOrEqual(1);
  });
});
