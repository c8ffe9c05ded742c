import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLogResponse } from '@wearable/domain';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';

/**
 * Issue 39 item 3: owners review who read whose data (GET /v2/accessLog and its CSV), filtered by person, staff
 * member and period; only owners and platform owners; reading it is itself recorded.
 */
let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  // Reads to find: a general staff member opens w1's profile, the group-2 manager w2's.
  for (const [who, uid] of [
    ['ORGANIZATION_GENERAL', w.w1.uid],
    ['GROUP_MANAGER_OTHER_GROUP', w.w2.uid],
    ['OTHER_ORG_OWNER', w.wB.uid],
  ] as const) {
    const res = await t.app.inject({ url: `/v2/user/${uid}`, headers: w.users[who].headers });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 60_000);
afterAll(() => t?.close());

const review = (who: ActorName, query = '') =>
  t.app.inject({ url: `/v2/accessLog?${query}`, headers: w.users[who].headers });

const STATUS: Record<ActorName, number> = {
  ALL_OWNER: 200,
  ALL_GENERAL: 403,
  ORGANIZATION_OWNER: 200,
  ORGANIZATION_GENERAL: 403,
  ORGANIZATION_GROUP: 403,
  GROUP_MANAGER_OTHER_GROUP: 403,
  OTHER_ORG_OWNER: 404,
  PERSONAL_LINKED: 403,
  PERSONAL_UNLINKED: 403,
  PERSONAL_SELF: 403,
};

describe('GET /v2/accessLog', () => {
  it.each(ACTOR_NAMES)('%s reading organisation A’s log', async (who) => {
    expect((await review(who, `clientId=${w.orgA}`)).statusCode).toBe(STATUS[who]);
    // Without clientId an owner reads their own organisation's; a role without the permission is refused at the door.
    expect((await review(who)).statusCode).toBe(STATUS[who] === 404 ? 200 : STATUS[who]);
  });

  it('an owner finds a staff member’s read of a person, by person and by staff member, with names', async () => {
    const byPerson = (
      await review('ORGANIZATION_OWNER', `personId=${w.w1.uid}`)
    ).json<AccessLogResponse>();
    const read = byPerson.entries.find((e) => e.actorId === w.users.ORGANIZATION_GENERAL.uid);
    expect(read).toMatchObject({
      clientId: w.orgA,
      what: 'records',
      actorName: w.users.ORGANIZATION_GENERAL.name,
      people: [{ uid: w.w1.uid, name: w.w1.name }],
    });
    const byActor = (
      await review('ORGANIZATION_OWNER', `actorId=${w.users.GROUP_MANAGER_OTHER_GROUP.uid}`)
    ).json<AccessLogResponse>();
    expect(byActor.entries.map((e) => e.people.map((p) => p.uid))).toEqual([[w.w2.uid]]);
    // A period before the reads holds none of them.
    const before = (
      await review('ORGANIZATION_OWNER', `personId=${w.w1.uid}&to=2020-01-01T00:00:00Z`)
    ).json<AccessLogResponse>();
    expect(before.total).toBe(0);
  });

  it('an owner without clientId reads their own organisation only; another organisation’s owner never sees it', async () => {
    const own = (await review('ORGANIZATION_OWNER')).json<AccessLogResponse>();
    expect(new Set(own.entries.map((e) => e.clientId))).toEqual(new Set([w.orgA]));
    const other = (await review('OTHER_ORG_OWNER')).json<AccessLogResponse>();
    expect(other.entries.every((e) => e.clientId === w.orgB)).toBe(true);
    expect(other.entries.some((e) => e.people.some((p) => p.uid === w.w1.uid))).toBe(false);
  });

  it('reading the log is itself recorded, naming the people it showed', async () => {
    await review('ORGANIZATION_OWNER', `personId=${w.w2.uid}`);
    const next = (
      await review('ORGANIZATION_OWNER', `actorId=${w.users.ORGANIZATION_OWNER.uid}`)
    ).json<AccessLogResponse>();
    expect(
      next.entries.some((e) => e.what === 'access-log' && e.people.some((p) => p.uid === w.w2.uid)),
    ).toBe(true);
  });

  it('as CSV: the same rows, with BOM, for owners only', async () => {
    const res = await t.app.inject({
      url: `/v2/accessLogCsv?personId=${w.w1.uid}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.startsWith('\uFEFFat,organization,seq,')).toBe(true);
    expect(res.body).toContain(`${w.w1.name} (${w.w1.uid})`);
    const general = await t.app.inject({
      url: '/v2/accessLogCsv',
      headers: w.users.ORGANIZATION_GENERAL.headers,
    });
    expect(general.statusCode).toBe(403);
  });

  it.each([
    ['personId=' + 'x'.repeat(65), 'querystring.personId'],
    ['from=yesterday', 'querystring.from'],
    ['page=0', 'querystring.page'],
    ['pageSize=500', 'querystring.pageSize'],
  ])('%s is a 400 naming %s', async (query, field) => {
    const res = await review('ORGANIZATION_OWNER', query);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });
});
