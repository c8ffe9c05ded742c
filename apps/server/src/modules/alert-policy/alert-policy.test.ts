import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_POLICY_DEFAULTS, type AlertPolicyResponse } from '@wearable/domain';
import { ACTOR_NAMES, type ActorName, type World, buildWorld } from '../../testing/world.js';
import { createOrganization } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { alertPolicyRepository } from './alert-policy.repository.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const url = (organizationId = w.orgA) => `/v2/organization/${organizationId}/alertPolicy`;
const call = (
  who: ActorName,
  method: 'GET' | 'PATCH',
  payload?: unknown,
  organizationId?: string,
) =>
  t.app.inject({
    method,
    url: url(organizationId),
    headers: w.users[who].headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const auditCount = async (organizationId: string) =>
  (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE organization_id = $1 AND kind = 'alertPolicy.update'`,
      [organizationId],
    )
  )[0]!.n;

/**
 * Organisation A's alert policy: all its staff (group managers of any group, platform staff) read
 * it; only owners change it; another organisation's owner does not learn it exists.
 */
const ACCESS: Record<ActorName, { get: number; patch: number }> = {
  ALL_OWNER: { get: 200, patch: 200 },
  ALL_GENERAL: { get: 200, patch: 403 },
  ORGANIZATION_OWNER: { get: 200, patch: 200 },
  ORGANIZATION_GENERAL: { get: 200, patch: 403 },
  ORGANIZATION_GROUP: { get: 200, patch: 403 },
  GROUP_MANAGER_OTHER_GROUP: { get: 200, patch: 403 },
  OTHER_ORG_OWNER: { get: 404, patch: 404 },
  PERSONAL_LINKED: { get: 403, patch: 403 },
  PERSONAL_UNLINKED: { get: 403, patch: 403 },
  PERSONAL_SELF: { get: 403, patch: 403 },
};

describe('an organisation’s alert policy: role table', () => {
  it.each(ACTOR_NAMES.map((who, i) => [who, i] as const))('%s', async (who, i) => {
    const get = await call(who, 'GET');
    expect(get.statusCode).toBe(ACCESS[who].get);
    // Each role tries its own value, so a refused change can be told from an earlier one.
    const mine = 20 + i;
    const res = await call(who, 'PATCH', { repeatIntervalMinutes: mine });
    expect(res.statusCode).toBe(ACCESS[who].patch);
    const stored = (await alertPolicyRepository(t.db).loadAlertPolicy(w.orgA))
      .repeatIntervalMinutes;
    if (ACCESS[who].patch === 200) {
      expect(stored).toBe(mine);
      expect(res.json<AlertPolicyResponse>().policy.repeatIntervalMinutes).toBe(mine);
    } else {
      expect(stored).not.toBe(mine);
    }
  });

  it('another organisation’s owner reads and changes their own policy', async () => {
    expect((await call('OTHER_ORG_OWNER', 'GET', undefined, w.orgB)).statusCode).toBe(200);
    const res = await call('OTHER_ORG_OWNER', 'PATCH', { smsPerHour: 3 }, w.orgB);
    expect(res.statusCode).toBe(200);
    expect((await alertPolicyRepository(t.db).loadAlertPolicy(w.orgB)).smsPerHour).toBe(3);
    // Organisation A's is its own.
    expect((await alertPolicyRepository(t.db).loadAlertPolicy(w.orgA)).smsPerHour).toBe(
      ALERT_POLICY_DEFAULTS.smsPerHour,
    );
  });

  it('an unknown organisation is 404, to platform staff too', async () => {
    expect((await call('ALL_OWNER', 'GET', undefined, 'org-nope')).statusCode).toBe(404);
    expect((await call('ALL_OWNER', 'PATCH', { smsPerHour: 3 }, 'org-nope')).statusCode).toBe(404);
  });
});

describe('an organisation’s alert policy', () => {
  it('is the defaults until changed; a change merges over the stored policy and is audited', async () => {
    const org = (await createOrganization(t)).id;
    // Platform owners act on any organisation.
    const first = await call('ALL_OWNER', 'GET', undefined, org);
    expect(first.json()).toEqual({
      organizationId: org,
      policy: ALERT_POLICY_DEFAULTS,
      defaults: ALERT_POLICY_DEFAULTS,
      updatedAt: null,
      updatedBy: null,
    });

    const one = await call('ALL_OWNER', 'PATCH', { smsPerHour: 4, recoveryMinutes: 15 }, org);
    expect(one.statusCode, one.body).toBe(200);
    const two = await call('ALL_OWNER', 'PATCH', { siteHeatLeaveMargin: 0.5 }, org);
    const body = two.json<AlertPolicyResponse>();
    expect(body.policy).toEqual({
      ...ALERT_POLICY_DEFAULTS,
      smsPerHour: 4,
      recoveryMinutes: 15,
      siteHeatLeaveMargin: 0.5,
    });
    expect(body.updatedBy).toEqual({
      uid: w.users.ALL_OWNER.uid,
      name: w.users.ALL_OWNER.name,
    });
    expect(Date.parse(body.updatedAt!)).toBeGreaterThan(Date.now() - 60_000);
    // What the engine and the notifier read is what was stored.
    expect(await alertPolicyRepository(t.db).loadAlertPolicy(org)).toEqual(body.policy);
    expect((await call('ALL_OWNER', 'GET', undefined, org)).json()).toEqual(body);

    const audit = await t.app.inject({
      url: `/v2/audit?clientId=${org}&kind=alertPolicy.update`,
      headers: w.users.ALL_OWNER.headers,
    });
    const entries = audit.json<{
      entries: { targetId: string; before: unknown; after: unknown }[];
    }>().entries;
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({
      targetId: org,
      before: ALERT_POLICY_DEFAULTS,
      after: { ...ALERT_POLICY_DEFAULTS, smsPerHour: 4, recoveryMinutes: 15 },
    });
    expect(entries[0]).toMatchObject({
      before: { ...ALERT_POLICY_DEFAULTS, smsPerHour: 4, recoveryMinutes: 15 },
      after: body.policy,
    });
  });

  it('changes of different settings at the same time all stay (none merges over a stale policy)', async () => {
    const org = (await createOrganization(t)).id;
    const changes = [
      { recoveryMinutes: 11 },
      { groupWindowMinutes: 3 },
      { repeatIntervalMinutes: 31 },
      { smsPerHour: 5 },
      { callsPerHour: 1 },
      { siteHeatEnterMinutes: 12 },
      { siteHeatLeaveMinutes: 16 },
      { siteHeatLeaveMargin: 1.5 },
      { manDownMinutes: 7 },
    ];
    const answers = await Promise.all(changes.map((c) => call('ALL_OWNER', 'PATCH', c, org)));
    expect(answers.map((a) => a.statusCode)).toEqual(changes.map(() => 200));
    expect(await alertPolicyRepository(t.db).loadAlertPolicy(org)).toEqual(
      Object.assign({}, ...changes),
    );
    expect(await auditCount(org)).toBe(changes.length);
  });

  it('a stored value out of today’s bounds reads as its default, and a change still saves', async () => {
    const org = (await createOrganization(t)).id;
    await t.db.query(
      `INSERT INTO organization_alert_policies (organization_id, policy, updated_at)
       VALUES ($1, $2::jsonb, now())`,
      [org, JSON.stringify({ recoveryMinutes: 99999, callsPerHour: 1 })],
    );
    const res = await call('ALL_OWNER', 'PATCH', { smsPerHour: 2 }, org);
    expect(res.statusCode).toBe(200);
    expect(res.json<AlertPolicyResponse>().policy).toEqual({
      ...ALERT_POLICY_DEFAULTS,
      callsPerHour: 1,
      smsPerHour: 2,
    });
  });

  it.each<[string, unknown]>([
    ['body.recoveryMinutes', { recoveryMinutes: -1 }],
    ['body.recoveryMinutes', { recoveryMinutes: 1441 }],
    ['body.recoveryMinutes', { recoveryMinutes: '10' }],
    ['body.recoveryMinutes', { recoveryMinutes: 2.5 }],
    ['body.recoveryMinutes', { recoveryMinutes: null }],
    ['body.groupWindowMinutes', { groupWindowMinutes: -2 }],
    ['body.groupWindowMinutes', { groupWindowMinutes: 61 }],
    ['body.repeatIntervalMinutes', { repeatIntervalMinutes: 0 }],
    ['body.repeatIntervalMinutes', { repeatIntervalMinutes: 1441 }],
    ['body.smsPerHour', { smsPerHour: 10_000 }],
    ['body.smsPerHour', { smsPerHour: 0 }],
    ['body.callsPerHour', { callsPerHour: 10_000 }],
    ['body.callsPerHour', { callsPerHour: -1 }],
    ['body.siteHeatEnterMinutes', { siteHeatEnterMinutes: -10 }],
    ['body.siteHeatLeaveMinutes', { siteHeatLeaveMinutes: 100_000 }],
    ['body.siteHeatLeaveMargin', { siteHeatLeaveMargin: -0.5 }],
    ['body.siteHeatLeaveMargin', { siteHeatLeaveMargin: 'one' }],
    // One bad setting beside good ones: none of them is stored.
    ['body.callsPerHour', { smsPerHour: 5, callsPerHour: 10_000 }],
    ['unknown setting "unknownSetting"', { unknownSetting: 1 }],
    ['unknown setting "sms"', { smsPerHour: 5, sms: 5 }],
    ['body', {}],
    ['body', []],
    ['body', 42],
  ])('a 400 naming %s, nothing changed', async (field, payload) => {
    const before = await call('ORGANIZATION_OWNER', 'GET');
    const audited = await auditCount(w.orgA);
    const res = await call('ORGANIZATION_OWNER', 'PATCH', payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(field);
    expect((await call('ORGANIZATION_OWNER', 'GET')).json()).toEqual(before.json());
    expect(await auditCount(w.orgA)).toBe(audited);
  });

  it('a PATCH without a body is a 400 naming the body, nothing changed', async () => {
    const before = await call('ORGANIZATION_OWNER', 'GET');
    const res = await t.app.inject({
      method: 'PATCH',
      url: url(),
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('body');
    expect((await call('ORGANIZATION_OWNER', 'GET')).json()).toEqual(before.json());
  });
});
