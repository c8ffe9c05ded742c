import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE } from '@wearable/domain';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  // One change in each organisation, by its own staff, through the real endpoints.
  const a = await t.app.inject({
    method: 'PATCH',
    url: '/v3/user/update',
    headers: w.users.ORGANIZATION_GENERAL.headers,
    payload: { uid: w.w1.uid, name: '監査 一郎' },
  });
  expect(a.statusCode).toBe(200);
  const b = await t.app.inject({
    method: 'PATCH',
    url: '/v3/user/update',
    headers: w.users.OTHER_ORG_OWNER.headers,
    payload: { uid: w.wB.uid, birthDate: '1960-03-04' },
  });
  expect(b.statusCode).toBe(200);
});
afterAll(() => t.close());

const get = (who: ActorName, query = '') =>
  t.app.inject({ method: 'GET', url: `/v2/audit${query}`, headers: w.users[who].headers });
const targets = async (who: ActorName, query = '') =>
  ((await get(who, query)).json<{ entries?: { targetId: string }[] }>().entries ?? []).map(
    (e) => e.targetId,
  );

/** Whose changes each caller reads without filters: owners their organisation, platform staff all. */
const READS: Record<ActorName, number | ('w1' | 'wB')[]> = {
  ALL_OWNER: ['w1', 'wB'],
  ALL_GENERAL: ['w1', 'wB'],
  ORGANIZATION_OWNER: ['w1'],
  ORGANIZATION_GENERAL: 403,
  ORGANIZATION_GROUP: 403,
  GROUP_MANAGER_OTHER_GROUP: 403,
  OTHER_ORG_OWNER: ['wB'],
  PERSONAL_LINKED: 403,
  PERSONAL_UNLINKED: 403,
  PERSONAL_SELF: 403,
};

describe('GET /v2/audit', () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const expected = READS[who];
    const res = await get(who);
    if (typeof expected === 'number') return expect(res.statusCode).toBe(expected);
    expect(res.statusCode).toBe(200);
    const seen = await targets(who);
    for (const name of ['w1', 'wB'] as const)
      expect(seen.includes(w[name].uid), name).toBe(expected.includes(name));
  });

  it("records who, what, before and after; another organisation's log is 404 to an owner", async () => {
    const [entry] = (
      await get(
        'ORGANIZATION_OWNER',
        `?kind=wearer.update&actorId=${w.users.ORGANIZATION_GENERAL.uid}`,
      )
    ).json().entries;
    expect(entry).toMatchObject({
      clientId: w.orgA,
      actorId: w.users.ORGANIZATION_GENERAL.uid,
      actorName: w.users.ORGANIZATION_GENERAL.name,
      targetId: w.w1.uid,
      before: { name: w.w1.name },
      after: { name: '監査 一郎' },
    });
    expect((await get('ORGANIZATION_OWNER', `?clientId=${w.orgB}`)).statusCode).toBe(404);
    expect(await targets('ALL_OWNER', `?clientId=${w.orgB}`)).toEqual([w.wB.uid]);
  });

  it('filters by period and pages', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await targets('ALL_OWNER', `?from=${encodeURIComponent(future)}`)).toEqual([]);
    // A second change in organisation A, and the pages narrowed to it: on PostgreSQL every test file
    // shares one database, so the platform-wide log holds other files' entries too.
    const again = await t.app.inject({
      method: 'PATCH',
      url: '/v3/user/update',
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: { uid: w.w1.uid, birthDate: '1971-01-02' },
    });
    expect(again.statusCode).toBe(200);
    const page = (await get('ALL_OWNER', `?clientId=${w.orgA}&pageSize=1&page=2`)).json();
    expect(page).toMatchObject({ page: 2, total: 2 });
    expect(page.entries).toHaveLength(1);
    const bad = await get('ALL_OWNER', '?kind=nothing&from=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/kind/);
  });

  it('alert settings and notice settings changes are recorded in their own transaction', async () => {
    const owner = w.users.ORGANIZATION_OWNER;
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${w.orgA}/user/alertSetting`,
      headers: owner.headers,
      payload: { uid: w.w2.uid, heartRateUpper: 150 },
    });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${w.g1}/alertNoticeSettings`,
      headers: owner.headers,
      payload: {
        recipients: [
          {
            phoneNumber: '+819012345678',
            channel: 'SMS',
            alertTypes: ['SOS_CALL'],
            schedule: DEFAULT_SCHEDULE,
            order: 1,
          },
        ],
      },
    });
    expect([patch.statusCode, put.statusCode]).toEqual([200, 200]);
    expect(await targets('ORGANIZATION_OWNER', '?kind=alertSettings.update')).toEqual([w.w2.uid]);
    const [notice] = (await get('ORGANIZATION_OWNER', '?kind=noticeSettings.update')).json()
      .entries;
    expect(notice).toMatchObject({
      targetId: w.g1,
      before: [],
      after: [{ phoneNumber: '+819012345678' }],
    });
  });
});
