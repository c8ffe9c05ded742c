import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@wearable/domain';
import {
  createBracelet,
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * The role x endpoint matrix of the identity endpoints. Organisation A has groups g1 and g2:
 * w1, w2 in g1; w3 and the PERSONAL_SELF wearer ("self") in g2. Organisation B has wb.
 * Besides A's seven roles: B's owner, a group manager of g2 only ("outsider" of g1) and a
 * personal user linked to nobody.
 */
let t: TestApp;
type Who = Role | 'B_OWNER' | 'GROUP_MANAGER_G2' | 'PERSONAL_UNLINKED';
const users = {} as Record<Who, UserRecord>;
const ids = {} as Record<'A' | 'B' | 'g1' | 'g2' | 'w1' | 'w2' | 'w3' | 'self' | 'wb', string>;

beforeAll(async () => {
  t = await createTestApp();
  const A = await createOrganization(t, { name: '組織A' });
  const B = await createOrganization(t, { name: '組織B' });
  const g1 = await createGroup(t, { organizationId: A.id, name: '第一' });
  const g2 = await createGroup(t, { organizationId: A.id, name: '第二' });
  const gB = await createGroup(t, { organizationId: B.id });
  // Names chosen so that code-point order differs from Japanese collation (アベ < いとう < かとう).
  const w1 = await createWearer(t, { organizationId: A.id, groupId: g1.id, name: 'かとう' });
  const w2 = await createWearer(t, { organizationId: A.id, groupId: g1.id, name: 'アベ' });
  const w3 = await createWearer(t, { organizationId: A.id, groupId: g2.id, name: 'いとう' });
  const wb = await createWearer(t, { organizationId: B.id, groupId: gB.id });
  const a = { organizationId: A.id };
  users.ALL_OWNER = await createUser(t, { role: 'ALL_OWNER' });
  users.ALL_GENERAL = await createUser(t, { role: 'ALL_GENERAL' });
  users.ORGANIZATION_OWNER = await createUser(t, { role: 'ORGANIZATION_OWNER', ...a });
  users.ORGANIZATION_GENERAL = await createUser(t, { role: 'ORGANIZATION_GENERAL', ...a });
  users.ORGANIZATION_GROUP = await createUser(t, {
    role: 'ORGANIZATION_GROUP',
    ...a,
    managedGroupIds: [g1.id],
  });
  users.PERSONAL = await createUser(t, { role: 'PERSONAL', linkedWearerIds: [w1.uid, w3.uid] });
  users.PERSONAL_SELF = await createUser(t, {
    role: 'PERSONAL_SELF',
    ...a,
    groupId: g2.id,
    name: 'うえだ',
  });
  const gw = await createGateway(t, { organizationId: A.id, groupId: g2.id, type: 'SMARTPHONE' });
  await createBracelet(t, {
    organizationId: A.id,
    wearerId: users.PERSONAL_SELF.uid,
    gatewayId: gw.id,
  });
  users.B_OWNER = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: B.id });
  users.GROUP_MANAGER_G2 = await createUser(t, {
    role: 'ORGANIZATION_GROUP',
    ...a,
    managedGroupIds: [g2.id],
  });
  users.PERSONAL_UNLINKED = await createUser(t, { role: 'PERSONAL' });
  Object.assign(ids, {
    A: A.id,
    B: B.id,
    g1: g1.id,
    g2: g2.id,
    w1: w1.uid,
    w2: w2.uid,
    w3: w3.uid,
    self: users.PERSONAL_SELF.uid,
    wb: wb.uid,
  });
});
afterAll(() => t.close());

const get = (who: Who, url: string) => t.app.inject({ url, headers: users[who].headers });
const uidsOf = (body: { devices: { uid: string }[] }) => body.devices.map((d) => d.uid);
// Wearer names as the expected lists: resolved after beforeAll.
const W =
  (...keys: (keyof typeof ids)[]) =>
  () =>
    keys.map((k) => ids[k]);
const ALL_A = W('w2', 'w3', 'self', 'w1'); // アベ, いとう, うえだ, かとう

describe('GET /v2/user/device/list (no filter)', () => {
  it.each<[Who, () => string[]]>([
    ['ORGANIZATION_OWNER', ALL_A],
    ['ORGANIZATION_GENERAL', ALL_A],
    ['ORGANIZATION_GROUP', W('w2', 'w1')],
    ['PERSONAL', W('w3', 'w1')],
    ['PERSONAL_SELF', W('self')],
    ['B_OWNER', W('wb')],
    ['GROUP_MANAGER_G2', W('w3', 'self')],
    ['PERSONAL_UNLINKED', W()],
  ])('%s sees exactly its wearers, in Japanese name order', async (who, expected) => {
    const res = await get(who, '/v2/user/device/list');
    expect(res.statusCode).toBe(200);
    expect(uidsOf(res.json())).toEqual(expected());
  });

  it.each<Who>(['ALL_OWNER', 'ALL_GENERAL'])('%s sees every organisation', async (who) => {
    const seen = uidsOf((await get(who, '/v2/user/device/list')).json());
    expect(seen).toEqual(expect.arrayContaining([...ALL_A(), ids.wb]));
  });

  it('name_desc reverses the order and items carry the bracelet', async () => {
    const res = await get('ORGANIZATION_OWNER', '/v2/user/device/list?sort=name_desc');
    expect(uidsOf(res.json())).toEqual([...ALL_A()].reverse());
    const body = res.json<{ devices: Record<string, unknown>[] }>();
    expect(body.devices.find((d) => d.uid === ids.w1)).toMatchObject({
      clientId: ids.A,
      groupId: ids.g1,
      groupName: '第一',
      wearableId: expect.any(String),
      serialNumber: expect.stringMatching(/^BR-/),
      gatewayId: expect.any(String),
    });
  });

  it('refuses an unknown sort naming querystring.sort', async () => {
    const res = await get('ORGANIZATION_OWNER', '/v2/user/device/list?sort=age');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('querystring.sort');
  });
});

describe('GET /v2/user/device/list?clientId=A', () => {
  it.each<[Who, number, (() => string[]) | null]>([
    ['ALL_OWNER', 200, ALL_A],
    ['ALL_GENERAL', 200, ALL_A],
    ['ORGANIZATION_OWNER', 200, ALL_A],
    ['ORGANIZATION_GENERAL', 200, ALL_A],
    ['ORGANIZATION_GROUP', 200, W('w2', 'w1')],
    // An explicit client must be one the caller reaches; personal users reach wearers, not clients.
    ['PERSONAL', 404, null],
    ['PERSONAL_SELF', 404, null],
    ['B_OWNER', 404, null],
    ['GROUP_MANAGER_G2', 200, W('w3', 'self')],
    ['PERSONAL_UNLINKED', 404, null],
  ])('%s -> %i', async (who, status, expected) => {
    const res = await get(who, `/v2/user/device/list?clientId=${ids.A}`);
    expect(res.statusCode).toBe(status);
    if (expected) expect(uidsOf(res.json())).toEqual(expected());
    else expect(res.json().code).toBe('CLIENT_NOT_FOUND');
  });
});

describe('GET /v2/user/device/list?groupId=g1', () => {
  it.each<[Who, number, (() => string[]) | null]>([
    ['ALL_OWNER', 200, W('w2', 'w1')],
    ['ALL_GENERAL', 200, W('w2', 'w1')],
    ['ORGANIZATION_OWNER', 200, W('w2', 'w1')],
    ['ORGANIZATION_GENERAL', 200, W('w2', 'w1')],
    ['ORGANIZATION_GROUP', 200, W('w2', 'w1')],
    ['PERSONAL', 404, null],
    ['PERSONAL_SELF', 404, null],
    ['B_OWNER', 404, null],
    ['GROUP_MANAGER_G2', 404, null],
    ['PERSONAL_UNLINKED', 404, null],
  ])('%s -> %i', async (who, status, expected) => {
    const res = await get(who, `/v2/user/device/list?groupId=${ids.g1}`);
    expect(res.statusCode).toBe(status);
    if (expected) expect(uidsOf(res.json())).toEqual(expected());
    else expect(res.json().code).toBe('GROUP_NOT_FOUND');
  });
});

describe('GET /v2/client', () => {
  it.each<[Who, number, (() => string[]) | 'superset']>([
    ['ALL_OWNER', 200, 'superset'],
    ['ALL_GENERAL', 200, 'superset'],
    ['ORGANIZATION_OWNER', 200, () => [ids.A]],
    ['ORGANIZATION_GENERAL', 200, () => [ids.A]],
    ['ORGANIZATION_GROUP', 200, () => [ids.A]],
    ['PERSONAL', 403, () => []],
    ['PERSONAL_SELF', 403, () => []],
    ['B_OWNER', 200, () => [ids.B]],
    ['GROUP_MANAGER_G2', 200, () => [ids.A]],
    ['PERSONAL_UNLINKED', 403, () => []],
  ])('%s -> %i', async (who, status, expected) => {
    const res = await get(who, '/v2/client');
    expect(res.statusCode).toBe(status);
    if (status !== 200) return;
    const clientIds = res.json<{ clients: { id: string }[] }>().clients.map((c) => c.id);
    if (expected === 'superset') expect(clientIds).toEqual(expect.arrayContaining([ids.A, ids.B]));
    else expect(clientIds).toEqual(expected());
  });

  it('counts groups, gateways and wearers', async () => {
    const res = await get('ORGANIZATION_OWNER', '/v2/client');
    // 4 wearers (w1..w3 and self); 4 gateways (one per factory wearer plus self's).
    expect(res.json().clients[0]).toMatchObject({
      name: '組織A',
      groupCount: 2,
      wearerCount: 4,
      gatewayCount: 4,
    });
  });
});

describe('GET /v2/client/{A}', () => {
  it.each<[Who, number, string[] | null]>([
    ['ALL_OWNER', 200, ['第一', '第二']],
    ['ALL_GENERAL', 200, ['第一', '第二']],
    ['ORGANIZATION_OWNER', 200, ['第一', '第二']],
    ['ORGANIZATION_GENERAL', 200, ['第一', '第二']],
    ['ORGANIZATION_GROUP', 200, ['第一']],
    // Personal roles never hold organization:read: 403 whatever the id (nothing leaks).
    ['PERSONAL', 403, null],
    ['PERSONAL_SELF', 403, null],
    ['B_OWNER', 404, null],
    ['GROUP_MANAGER_G2', 200, ['第二']],
    ['PERSONAL_UNLINKED', 403, null],
  ])('%s -> %i', async (who, status, groups) => {
    const res = await get(who, `/v2/client/${ids.A}`);
    expect(res.statusCode).toBe(status);
    if (groups) {
      expect(res.json()).toMatchObject({ id: ids.A, name: '組織A', timeZone: 'Asia/Tokyo' });
      expect(res.json<{ groups: { name: string }[] }>().groups.map((g) => g.name)).toEqual(groups);
    } else {
      expect(res.json().code).toBe(status === 404 ? 'CLIENT_NOT_FOUND' : 'FORBIDDEN');
    }
  });

  it('an unknown id is the same 404 as a foreign one', async () => {
    const unknown = await get('B_OWNER', '/v2/client/no-such-org');
    const foreign = await get('B_OWNER', `/v2/client/${ids.A}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe(foreign.json().code);
  });
});

describe('GET /v2/user/organization/members', () => {
  const staffOfA = () =>
    [
      users.ORGANIZATION_OWNER,
      users.ORGANIZATION_GENERAL,
      users.ORGANIZATION_GROUP,
      users.GROUP_MANAGER_G2,
    ]
      .map((u) => u.uid)
      .sort();
  it.each<[Who, string, number, (() => string[]) | null]>([
    ['ALL_OWNER', '', 400, null],
    ['ALL_OWNER', '?clientId=A', 200, staffOfA],
    ['ALL_GENERAL', '?clientId=A', 200, staffOfA],
    ['ORGANIZATION_OWNER', '', 200, staffOfA],
    ['ORGANIZATION_GENERAL', '', 200, staffOfA],
    ['ORGANIZATION_GROUP', '', 200, staffOfA],
    ['ORGANIZATION_OWNER', '?clientId=B', 404, null],
    ['PERSONAL', '', 403, null],
    ['PERSONAL_SELF', '', 403, null],
    ['B_OWNER', '', 200, () => [users.B_OWNER.uid]],
    ['B_OWNER', '?clientId=A', 404, null],
    ['GROUP_MANAGER_G2', '', 200, staffOfA],
    ['PERSONAL_UNLINKED', '', 403, null],
  ])('%s %s -> %i', async (who, query, status, expected) => {
    const url = `/v2/user/organization/members${query.replace('=A', `=${ids.A}`).replace('=B', `=${ids.B}`)}`;
    const res = await get(who, url);
    expect(res.statusCode).toBe(status);
    if (status === 400) expect(res.json().message).toContain('querystring.clientId');
    if (expected) {
      const members = res.json<{ members: { uid: string }[] }>().members;
      expect(members.map((m) => m.uid).sort()).toEqual(expected());
    }
  });

  it('lists each member with role and managed groups', async () => {
    const res = await get('ORGANIZATION_OWNER', '/v2/user/organization/members');
    const manager = res
      .json<{ members: { uid: string }[] }>()
      .members.find((m) => m.uid === users.ORGANIZATION_GROUP.uid);
    expect(manager).toEqual({
      uid: users.ORGANIZATION_GROUP.uid,
      name: users.ORGANIZATION_GROUP.name,
      mail: users.ORGANIZATION_GROUP.email,
      role: 'ORGANIZATION_GROUP',
      groups: [{ id: ids.g1, name: '第一' }],
    });
  });
});

describe('own-record endpoints: every actor reaches only itself', () => {
  const everyone: Who[] = [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
    'PERSONAL',
    'PERSONAL_SELF',
    'B_OWNER',
    'GROUP_MANAGER_G2',
    'PERSONAL_UNLINKED',
  ];
  it.each(everyone)(
    '%s: GET /v2/user is its own record, POST /v2/user/termsOfUse records its own agreement',
    async (who) => {
      const me = await get(who, '/v2/user');
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ uid: users[who].uid, role: users[who].role });
      const agree = await t.app.inject({
        method: 'POST',
        url: '/v2/user/termsOfUse',
        headers: users[who].headers,
        payload: { agreement: true },
      });
      expect(agree.statusCode).toBe(200);
    },
  );
});

describe('every identity endpoint needs a token', () => {
  it.each([
    '/v2/user',
    '/v2/user/device/list',
    '/v2/client',
    '/v2/client/x',
    '/v2/user/organization/members',
  ])('GET %s without a token -> 401', async (url) => {
    expect((await t.app.inject({ url })).statusCode).toBe(401);
  });
});
