import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../testing/factories.js';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/** GET /v2/users (/users): platform staff find anyone with a console account, across organisations. */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const find = (who: ActorName, query = '') =>
  t.app.inject({ url: `/v2/users${query}`, headers: w.users[who].headers });
type Found = {
  users: {
    uid: string;
    name: string;
    role: string;
    clientId: string | null;
    organizationName: string | null;
  }[];
  total: number;
};

/** Only the platform roles hold user:lookup; everyone else is refused before anything is read. */
const STATUS: Record<ActorName, number> = {
  ALL_OWNER: 200,
  ALL_GENERAL: 200,
  ORGANIZATION_OWNER: 403,
  ORGANIZATION_GENERAL: 403,
  ORGANIZATION_GROUP: 403,
  GROUP_MANAGER_OTHER_GROUP: 403,
  OTHER_ORG_OWNER: 403,
  PERSONAL_LINKED: 403,
  PERSONAL_UNLINKED: 403,
  PERSONAL_SELF: 403,
};

describe('GET /v2/users', () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const res = await find(who, `?q=${encodeURIComponent(w.users.OTHER_ORG_OWNER.email)}`);
    expect(res.statusCode).toBe(STATUS[who]);
    if (res.statusCode === 200)
      expect(res.json<Found>().users.map((u) => u.uid)).toEqual([w.users.OTHER_ORG_OWNER.uid]);
  });

  it("finds people of both organisations with their organisation and role; a family member with their wearer's organisation", async () => {
    const byName = async (q: string) =>
      (await find('ALL_GENERAL', `?q=${encodeURIComponent(q)}&pageSize=200`)).json<Found>().users;
    const [a] = await byName(w.users.ORGANIZATION_GROUP.email);
    expect(a).toMatchObject({
      uid: w.users.ORGANIZATION_GROUP.uid,
      role: 'ORGANIZATION_GROUP',
      clientId: w.orgA,
    });
    expect(a?.organizationName).toBeTruthy();
    const [b] = await byName(w.users.OTHER_ORG_OWNER.email.toUpperCase());
    expect(b).toMatchObject({ role: 'ORGANIZATION_OWNER', clientId: w.orgB });
    const [family] = await byName(w.users.PERSONAL_LINKED.email);
    expect(family).toMatchObject({ role: 'PERSONAL', clientId: w.orgA });
    const [platform] = await byName(w.users.ALL_OWNER.email);
    expect(platform).toMatchObject({ role: 'ALL_OWNER', clientId: null, organizationName: null });
    // Wearers without sign-in are not users.
    expect(await byName(w.w1.name)).toEqual([]);
  });

  it('pages', async () => {
    // Five people of this test's own (on PostgreSQL other test files add users meanwhile, so totals over
    // everyone move between two requests).
    const tag = `Lookup ${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 5; i++)
      await createUser(t, {
        role: 'ORGANIZATION_GENERAL',
        organizationId: w.orgA,
        name: `${tag} ${i}`,
      });
    const q = `?q=${encodeURIComponent(tag)}&pageSize=2`;
    const first = (await find('ALL_OWNER', q)).json<Found>();
    expect([first.users.length, first.total]).toEqual([2, 5]);
    const pages = [
      first,
      ...(await Promise.all(
        [2, 3].map(async (page) => (await find('ALL_OWNER', `${q}&page=${page}`)).json<Found>()),
      )),
    ];
    expect(pages.map((p) => p.users.length)).toEqual([2, 2, 1]);
    expect(new Set(pages.flatMap((p) => p.users.map((u) => u.uid))).size).toBe(5);
    const beyond = (await find('ALL_OWNER', `${q}&page=10000`)).json<Found>();
    expect([beyond.users.length, beyond.total]).toEqual([0, 5]);
  });

  it.each([
    ['?page=0', 'page'],
    ['?pageSize=201', 'pageSize'],
    [`?q=${'x'.repeat(101)}`, 'q'],
    ['?page=abc', 'page'],
  ])('bad input %s is 400 naming the field', async (query, field) => {
    const res = await find('ALL_OWNER', query);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(field);
  });

  it('needs a bearer token', async () => {
    expect((await t.app.inject({ url: '/v2/users' })).statusCode).toBe(401);
  });
});
