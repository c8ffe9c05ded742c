import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@wearable/domain';
import {
  createGroup,
  createOrganization,
  createUser,
  type UserRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'PATCH' | 'DELETE' | 'POST',
  url: string,
  headers: object,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: headers as Record<string, string>,
    ...(payload ? { payload } : {}),
  });
const staffOfA = (role: Role = 'ORGANIZATION_GENERAL', groups: string[] = []) =>
  createUser(t, { role, organizationId: w.orgA, managedGroupIds: groups });
const roleOf = async (uid: string) =>
  (
    await t.db.query<{ role: string; deleted: boolean }>(
      'SELECT role, deleted_at IS NOT NULL AS deleted FROM users WHERE id = $1',
      [uid],
    )
  )[0];

/** Changing organisation A's staff: its owners and the platform owner; B's owner does not even see them. */
const CHANGES: Record<ActorName, number> = {
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

/** Each endpoint: a fresh target in organisation A, the call, and what must have happened on 200. */
const ENDPOINTS: Record<
  string,
  {
    target: () => Promise<UserRecord>;
    call: (who: ActorName, u: UserRecord) => ReturnType<typeof call>;
    after: (u: UserRecord) => Promise<unknown>;
  }
> = {
  'PATCH /v2/user/organization/members': {
    target: () => staffOfA(),
    call: (who, u) =>
      call('PATCH', '/v2/user/organization/members', w.users[who].headers, {
        uid: u.uid,
        role: 'ORGANIZATION_OWNER',
      }),
    after: async (u) => expect((await roleOf(u.uid))?.role).toBe('ORGANIZATION_OWNER'),
  },
  'DELETE /v2/user/organization/members': {
    target: () => staffOfA(),
    call: (who, u) =>
      call(
        'DELETE',
        `/v2/user/organization/members?uid=${u.uid}&clientId=${w.orgA}`,
        w.users[who].headers,
      ),
    after: async (u) => expect((await roleOf(u.uid))?.deleted).toBe(true),
  },
  'DELETE /v2/user/{uid}/delete': {
    target: () => staffOfA(),
    call: (who, u) => call('DELETE', `/v2/user/${u.uid}/delete`, w.users[who].headers),
    after: async (u) => expect((await roleOf(u.uid))?.deleted).toBe(true),
  },
  'PATCH /v2/user/{uid}/group': {
    target: () => staffOfA('ORGANIZATION_GROUP', [w.g1]),
    call: (who, u) =>
      call('PATCH', `/v2/user/${u.uid}/group`, w.users[who].headers, { groupIds: [w.g2] }),
    after: async (u) => expect(await managed(u.uid)).toEqual([w.g2]),
  },
  'POST /v2/user/group/link': {
    target: () => staffOfA('ORGANIZATION_GROUP', [w.g1]),
    call: (who, u) =>
      call('POST', '/v2/user/group/link', w.users[who].headers, { uid: u.uid, groupId: w.g2 }),
    after: async (u) => expect(await managed(u.uid)).toEqual([w.g1, w.g2].sort()),
  },
  'POST /v2/user/{uid}/group/unlink': {
    target: () => staffOfA('ORGANIZATION_GROUP', [w.g1, w.g2]),
    call: (who, u) =>
      call('POST', `/v2/user/${u.uid}/group/unlink`, w.users[who].headers, { groupId: w.g2 }),
    after: async (u) => expect(await managed(u.uid)).toEqual([w.g1]),
  },
};
const managed = async (uid: string) =>
  (
    await t.db.query<{ group_id: string }>(
      'SELECT group_id FROM group_managers WHERE user_id = $1 ORDER BY group_id',
      [uid],
    )
  ).map((r) => r.group_id);

for (const [endpoint, spec] of Object.entries(ENDPOINTS)) {
  describe(`${endpoint}: who may change organisation A's staff`, () => {
    it.each(ACTOR_NAMES)('%s', async (who) => {
      const u = await spec.target();
      const before = { role: await roleOf(u.uid), groups: await managed(u.uid) };
      const res = await spec.call(who, u);
      expect(res.statusCode, res.body).toBe(CHANGES[who]);
      if (res.statusCode === 200) await spec.after(u);
      else expect({ role: await roleOf(u.uid), groups: await managed(u.uid) }).toEqual(before);
    });
  });
}

describe('GET /v2/user/organization/members', () => {
  const READS: Record<ActorName, number> = {
    ALL_OWNER: 200,
    ALL_GENERAL: 200,
    ORGANIZATION_OWNER: 200,
    ORGANIZATION_GENERAL: 200,
    ORGANIZATION_GROUP: 200,
    GROUP_MANAGER_OTHER_GROUP: 200,
    OTHER_ORG_OWNER: 404,
    PERSONAL_LINKED: 403,
    PERSONAL_UNLINKED: 403,
    PERSONAL_SELF: 403,
  };
  it.each(ACTOR_NAMES)('%s reading organisation A', async (who) => {
    const res = await call(
      'GET',
      `/v2/user/organization/members?clientId=${w.orgA}&pageSize=200`,
      w.users[who].headers,
    );
    expect(res.statusCode).toBe(READS[who]);
    if (res.statusCode === 200) {
      const uids = res.json<{ members: { uid: string }[] }>().members.map((m) => m.uid);
      expect(uids).toContain(w.users.ORGANIZATION_OWNER.uid);
      expect(uids).not.toContain(w.users.OTHER_ORG_OWNER.uid);
      expect(uids).not.toContain(w.w1.uid);
    }
  });

  it('platform staff must name the organisation (the page sends clientId)', async () => {
    const res = await call('GET', '/v2/user/organization/members', w.users.ALL_GENERAL.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([
      { path: 'querystring.clientId', message: expect.any(String) },
    ]);
  });

  it('pages and searches by name or address, and lists pending invitations', async () => {
    const org = await createOrganization(t);
    const owner = await createUser(t, {
      role: 'ORGANIZATION_OWNER',
      organizationId: org.id,
      name: 'あ 先頭',
    });
    for (let i = 0; i < 6; i++)
      await createUser(t, {
        role: 'ORGANIZATION_GENERAL',
        organizationId: org.id,
        name: `職員 ${i}`,
      });
    const page3 = await call(
      'GET',
      '/v2/user/organization/members?page=3&pageSize=3',
      owner.headers,
    );
    expect(page3.json()).toMatchObject({
      total: 7,
      page: 3,
      pageSize: 3,
      members: [{ name: '職員 5' }],
    });
    const found = await call(
      'GET',
      `/v2/user/organization/members?q=${encodeURIComponent('職員 3')}`,
      owner.headers,
    );
    expect(found.json()).toMatchObject({ total: 1, members: [{ name: '職員 3' }] });
    await call('POST', '/v2/user/invite', owner.headers, {
      email: 'pending-one@invitee.example.test',
      role: 'ORGANIZATION_GENERAL',
    });
    const listed = await call('GET', '/v2/user/organization/members?q=pending-one', owner.headers);
    expect(listed.json()).toMatchObject({
      total: 0,
      invitations: [{ email: 'pending-one@invitee.example.test', expired: false }],
    });
  });
});

describe('the last owner', () => {
  it('cannot be demoted or removed, not even by themself', async () => {
    const org = await createOrganization(t);
    const owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
    const demote = await call('PATCH', '/v2/user/organization/members', owner.headers, {
      uid: owner.uid,
      role: 'ORGANIZATION_GENERAL',
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ code: 'LAST_OWNER' });
    const remove = await call(
      'DELETE',
      `/v2/user/organization/members?uid=${owner.uid}`,
      owner.headers,
    );
    expect(remove.json()).toMatchObject({ statusCode: 409, code: 'LAST_OWNER' });
    expect(await roleOf(owner.uid)).toEqual({ role: 'ORGANIZATION_OWNER', deleted: false });
  });

  it('two owners demoting (or removing) each other at once: one passes, the other is refused, one owner is left', async () => {
    for (let round = 0; round < 8; round++) {
      const org = await createOrganization(t);
      const x = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
      const y = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
      const answers = await Promise.all([
        call('PATCH', '/v2/user/organization/members', x.headers, {
          uid: y.uid,
          role: 'ORGANIZATION_GENERAL',
        }),
        round % 2 === 0
          ? call('PATCH', '/v2/user/organization/members', y.headers, {
              uid: x.uid,
              role: 'ORGANIZATION_GENERAL',
            })
          : call('DELETE', `/v2/user/organization/members?uid=${x.uid}`, y.headers),
      ]);
      // The second change is refused as the last owner's (409), or because its author lost the role (403) or was
      // removed (401) by the first.
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses[0], JSON.stringify(statuses)).toBe(200);
      expect([401, 403, 409], JSON.stringify(statuses)).toContain(statuses[1]);
      const owners = await t.db.query(
        "SELECT 1 FROM users WHERE organization_id = $1 AND role = 'ORGANIZATION_OWNER' AND deleted_at IS NULL",
        [org.id],
      );
      expect(owners).toHaveLength(1);
    }
  });
});

describe('removing a person', () => {
  it('ends their sessions at once, keeps their row, and frees the address for a new invitation', async () => {
    const gone = await staffOfA();
    expect((await call('GET', '/v2/user', gone.headers)).statusCode).toBe(200);
    const res = await call(
      'DELETE',
      `/v2/user/organization/members?uid=${gone.uid}`,
      w.users.ORGANIZATION_OWNER.headers,
    );
    expect(res.json()).toEqual({ uid: gone.uid, removed: true });
    expect((await call('GET', '/v2/user', gone.headers)).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/refresh',
      payload: { refreshToken: gone.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    expect(await roleOf(gone.uid)).toEqual({ role: 'ORGANIZATION_GENERAL', deleted: true });
    const again = await call('POST', '/v2/user/invite', w.users.ORGANIZATION_OWNER.headers, {
      email: gone.email,
      role: 'ORGANIZATION_GENERAL',
    });
    expect(again.statusCode).toBe(201);
    expect(
      (
        await call(
          'DELETE',
          `/v2/user/organization/members?uid=${gone.uid}`,
          w.users.ORGANIZATION_OWNER.headers,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('an organisation owner cannot touch platform staff or another organisation’s staff by uid', async () => {
    for (const uid of [
      w.users.ALL_OWNER.uid,
      w.users.OTHER_ORG_OWNER.uid,
      w.w1.uid,
      'usr-unknown',
    ]) {
      const res = await call(
        'DELETE',
        `/v2/user/${uid}/delete`,
        w.users.ORGANIZATION_OWNER.headers,
      );
      expect(res.json()).toMatchObject({ statusCode: 404, code: 'MEMBER_NOT_FOUND' });
    }
  });
});

describe('bad input is a 4xx naming the field, and nothing changes', () => {
  it.each([
    ['PATCH', '/v2/user/organization/members', { role: 'ORGANIZATION_OWNER' }, 'body.uid'],
    ['PATCH', '/v2/user/organization/members', { uid: 'U', role: 'PERSONAL' }, 'body.role'],
    [
      'PATCH',
      '/v2/user/organization/members',
      { uid: 'U', role: 'ORGANIZATION_GROUP' },
      'body.groupIds',
    ],
    [
      'PATCH',
      '/v2/user/organization/members',
      { uid: 'U', role: 'ORGANIZATION_GENERAL', groupIds: ['G1'] },
      'body.groupIds',
    ],
    [
      'PATCH',
      '/v2/user/organization/members',
      { uid: 'U', role: 'ORGANIZATION_GROUP', groupIds: ['GB'] },
      'body.groupIds',
    ],
    ['DELETE', '/v2/user/organization/members', undefined, 'querystring.uid'],
    ['PATCH', '/v2/user/U/group', { groupIds: [] }, 'body.groupIds'],
    ['PATCH', '/v2/user/U/group', { groupIds: ['GB'] }, 'body.groupIds'],
    ['POST', '/v2/user/group/link', { uid: 'U' }, 'body.groupId'],
    ['POST', '/v2/user/U/group/unlink', {}, 'body.groupId'],
    ['POST', '/v2/user/U/group/unlink', { groupId: 'G1' }, 'body.groupId'],
    ['GET', '/v2/user/organization/members?pageSize=1000', undefined, 'querystring.pageSize'],
    ['GET', '/v2/user/organization/members?page=0', undefined, 'querystring.page'],
  ] as const)('%s %s %j', async (method, url, payload, path) => {
    const gB = await createGroup(t, { organizationId: w.orgB });
    const u = await staffOfA('ORGANIZATION_GROUP', [w.g1]);
    const fill = (s: string) =>
      s.replaceAll('GB', gB.id).replaceAll('G1', w.g1).replace(/\bU\b/g, u.uid);
    const body = payload && (JSON.parse(fill(JSON.stringify(payload))) as object);
    const res = await call(method, fill(url), w.users.ALL_OWNER.headers, body);
    expect([400, 409]).toContain(res.statusCode);
    expect(res.json<{ issues: { path: string }[] }>().issues.map((i) => i.path)).toContain(path);
    expect({ role: await roleOf(u.uid), groups: await managed(u.uid) }).toEqual({
      role: { role: 'ORGANIZATION_GROUP', deleted: false },
      groups: [w.g1],
    });
  });
});
