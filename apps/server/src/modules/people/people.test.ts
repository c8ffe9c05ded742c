import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, createWearer } from '../../testing/factories.js';
import {
  ACTOR_NAMES,
  type ActorName,
  buildWorld,
  insertAlert,
  type World,
} from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const call = (
  who: ActorName,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: w.users[who].headers, ...(payload ? { payload } : {}) });
const audits = async (kind: string, targetId: string) =>
  (
    await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_log WHERE kind = $1 AND target_id = $2',
      [kind, targetId],
    )
  )[0]!.n;

/** w1 is in org A group 1: who may read it, edit it, add a wearer to group 1, link a family member to it. */
const TABLE: Record<ActorName, { get: number; edit: number; add: number; link: number }> = {
  ALL_OWNER: { get: 200, edit: 200, add: 201, link: 200 },
  ALL_GENERAL: { get: 200, edit: 403, add: 403, link: 403 },
  ORGANIZATION_OWNER: { get: 200, edit: 200, add: 201, link: 200 },
  ORGANIZATION_GENERAL: { get: 200, edit: 200, add: 201, link: 200 },
  ORGANIZATION_GROUP: { get: 200, edit: 200, add: 201, link: 200 },
  GROUP_MANAGER_OTHER_GROUP: { get: 404, edit: 404, add: 404, link: 404 },
  OTHER_ORG_OWNER: { get: 404, edit: 404, add: 404, link: 404 },
  PERSONAL_LINKED: { get: 200, edit: 403, add: 403, link: 403 },
  PERSONAL_UNLINKED: { get: 404, edit: 404, add: 403, link: 403 },
  PERSONAL_SELF: { get: 200, edit: 403, add: 403, link: 403 },
};

describe('wearers and family members, by role', () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const row = TABLE[who];
    expect((await call(who, 'GET', `/v2/user/${w.w1.uid}`)).statusCode).toBe(row.get);
    const name = `編集 ${who}`;
    const edit = await call(who, 'PATCH', '/v3/user/update', { uid: w.w1.uid, name });
    expect(edit.statusCode).toBe(row.edit);
    const [stored] = await t.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [
      w.w1.uid,
    ]);
    if (row.edit === 200) expect(stored!.name).toBe(name);
    else expect(stored!.name).not.toBe(name);
    const add = await call(who, 'POST', '/v2/user/wearer', {
      clientId: w.orgA,
      name: `新規 ${who}`,
      birthDate: '1970-01-02',
      groupId: w.g1,
    });
    expect(add.statusCode).toBe(row.add);
    if (row.add === 201) {
      expect(add.json()).toMatchObject({
        kind: 'WEARER',
        birthDate: '1970-01-02',
        groupId: w.g1,
        clientId: w.orgA,
      });
      expect(await audits('wearer.create', add.json<{ uid: string }>().uid)).toBe(1);
    }
    const family = await createUser(t, { role: 'PERSONAL' });
    const link = await call(who, 'POST', '/v2/user/device/link/user', {
      uid: family.uid,
      wearerUid: w.w1.uid,
    });
    expect(link.statusCode).toBe(row.link);
    const links = await t.db.query('SELECT 1 FROM user_links WHERE user_id = $1', [family.uid]);
    expect(links.length).toBe(row.link === 200 ? 1 : 0);
  });

  it('a group manager cannot put a wearer outside their groups; the platform reader sees other organisations', async () => {
    expect(
      (
        await call('ORGANIZATION_GROUP', 'POST', '/v2/user/wearer', {
          clientId: w.orgA,
          name: 'x',
          birthDate: '1970-01-01',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('ORGANIZATION_GROUP', 'PATCH', '/v3/user/update', {
          uid: w.w1.uid,
          groupId: w.g2,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('ALL_GENERAL', 'GET', `/v2/user/${w.wB.uid}`)).statusCode).toBe(200);
  });

  it('family members: listed for the staff of their wearers, read by them, unlinked', async () => {
    const family = await createUser(t, { role: 'PERSONAL', name: '家族 花子' });
    expect(
      (
        await call('ORGANIZATION_OWNER', 'POST', '/v2/user/device/link/user', {
          uid: family.uid,
          wearerUid: w.w2.uid,
        })
      ).statusCode,
    ).toBe(200);
    const listed = async (who: ActorName) =>
      (await call(who, 'GET', '/v2/user/lookup/associatedWithWearables'))
        .json<{ users?: { uid: string }[] }>()
        .users?.some((u: { uid: string }) => u.uid === family.uid);
    expect(await listed('ORGANIZATION_OWNER')).toBe(true);
    expect(await listed('GROUP_MANAGER_OTHER_GROUP')).toBe(true);
    expect(await listed('ORGANIZATION_GROUP')).toBe(false);
    expect(await listed('OTHER_ORG_OWNER')).toBe(false);
    expect(
      (await call('PERSONAL_LINKED', 'GET', '/v2/user/lookup/associatedWithWearables')).statusCode,
    ).toBe(403);
    const read = await call('GROUP_MANAGER_OTHER_GROUP', 'GET', `/v2/user/${family.uid}`);
    expect(read.json()).toMatchObject({ kind: 'FAMILY', linkedWearers: [{ uid: w.w2.uid }] });
    expect((await call('ORGANIZATION_GROUP', 'GET', `/v2/user/${family.uid}`)).statusCode).toBe(
      404,
    );
    expect(
      (
        await call('ORGANIZATION_OWNER', 'POST', '/v2/user/device/unlink/user', {
          uid: family.uid,
          wearerUid: w.w2.uid,
        })
      ).json().linked,
    ).toBe(false);
    expect(await listed('ORGANIZATION_OWNER')).toBe(false);
    expect(await audits('family.unlink', family.uid)).toBe(1);
  });

  it('staff are read by their organisation and the platform; anyone reads and renames themself', async () => {
    const general = w.users.ORGANIZATION_GENERAL.uid;
    expect((await call('ORGANIZATION_OWNER', 'GET', `/v2/user/${general}`)).json().kind).toBe(
      'STAFF',
    );
    expect((await call('OTHER_ORG_OWNER', 'GET', `/v2/user/${general}`)).statusCode).toBe(404);
    expect((await call('PERSONAL_LINKED', 'GET', `/v2/user/${general}`)).statusCode).toBe(404);
    expect(
      (await call('ORGANIZATION_OWNER', 'GET', `/v2/user/${w.users.ALL_OWNER.uid}`)).statusCode,
    ).toBe(404);
    expect((await call('ALL_GENERAL', 'GET', `/v2/user/${w.users.ALL_OWNER.uid}`)).statusCode).toBe(
      200,
    );
    expect(
      (await call('ORGANIZATION_OWNER', 'PATCH', '/v3/user/update', { uid: general, name: 'x' }))
        .statusCode,
    ).toBe(403);
    const self = await call('PERSONAL_UNLINKED', 'PATCH', '/v3/user/update', {
      name: '自分 の 名前',
    });
    expect(self.json()).toMatchObject({ name: '自分 の 名前', kind: 'FAMILY' });
    const bad = await call('PERSONAL_UNLINKED', 'PATCH', '/v3/user/update', {
      birthDate: '1990-01-01',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/birthDate/);
  });

  it('bad input: 400 naming the field, nothing written', async () => {
    // This file's organisations: other test files add users to a shared PostgreSQL meanwhile.
    const users = async () =>
      (
        await t.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM users WHERE organization_id = ANY($1)',
          [[w.orgA, w.orgB]],
        )
      )[0]!.n;
    const before = await users();
    const cases: [string, object][] = [
      ['name', { clientId: w.orgA, name: '', birthDate: '1970-01-01', groupId: w.g1 }],
      ['birthDate', { clientId: w.orgA, name: 'a', birthDate: '1970-02-30', groupId: w.g1 }],
      ['birthDate', { clientId: w.orgA, name: 'a', birthDate: '1800-01-01', groupId: w.g1 }],
      ['clientId', { name: 'a', birthDate: '1970-01-01' }],
      ['extra', { clientId: w.orgA, name: 'a', birthDate: '1970-01-01', extra: 1 }],
    ];
    for (const [field, body] of cases) {
      const res = await call('ORGANIZATION_OWNER', 'POST', '/v2/user/wearer', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.body, field).toContain(field);
    }
    const otherOrgGroup = await call('ALL_OWNER', 'POST', '/v2/user/wearer', {
      clientId: w.orgB,
      name: 'a',
      birthDate: '1970-01-01',
      groupId: w.g1,
    });
    expect(otherOrgGroup.statusCode).toBe(400);
    expect(otherOrgGroup.json().message).toMatch(/groupId/);
    expect(await users()).toBe(before);
    const empty = await call('ORGANIZATION_OWNER', 'PATCH', '/v3/user/update', { uid: w.w2.uid });
    expect(empty.statusCode).toBe(400);
    const staffLink = await call('ORGANIZATION_OWNER', 'POST', '/v2/user/device/link/user', {
      uid: w.users.ORGANIZATION_GENERAL.uid,
      wearerUid: w.w2.uid,
    });
    expect(staffLink.statusCode).toBe(400);
    expect(staffLink.json().message).toMatch(/uid/);
    const noBody = await call('ORGANIZATION_OWNER', 'DELETE', `/v2/user/${w.w2.uid}/phoneNumber`);
    expect(noBody.statusCode).toBe(400);
  });

  it('removing a wearer keeps their readings and alerts, frees the bracelet, and is audited with the before state', async () => {
    const gone = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
    const alert = await insertAlert(t.db, gone);
    expect(
      (await call('ORGANIZATION_GENERAL', 'DELETE', `/v2/user/wearer/${gone.uid}`)).statusCode,
    ).toBe(200);
    expect((await call('ORGANIZATION_OWNER', 'GET', `/v2/user/${gone.uid}`)).statusCode).toBe(404);
    expect((await t.db.query('SELECT 1 FROM alerts WHERE id = $1', [alert])).length).toBe(1);
    expect(
      (await t.db.query('SELECT wearer_id FROM bracelets WHERE id = $1', [gone.bracelet.id]))[0],
    ).toEqual({ wearer_id: null });
    const log = await call('ORGANIZATION_OWNER', 'GET', '/v2/audit?kind=wearer.remove');
    expect(
      log.json<{ entries: { targetId: string }[] }>().entries.find((e) => e.targetId === gone.uid),
    ).toMatchObject({ before: { name: gone.name }, actorId: w.users.ORGANIZATION_GENERAL.uid });
    expect(
      (await call('ORGANIZATION_GROUP', 'DELETE', `/v2/user/wearer/${w.w2.uid}`)).statusCode,
    ).toBe(404);
  });

  it('removals of one wearer sent at once: one succeeds, the others find it gone (404), none is a 500', async () => {
    const gone = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('ORGANIZATION_OWNER', 'DELETE', `/v2/user/wearer/${gone.uid}`),
      ),
    ).then((all) => all.map((r) => r.statusCode));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 404)).toBe(true);
    const log = await call('ORGANIZATION_OWNER', 'GET', '/v2/audit?kind=wearer.remove');
    expect(
      log
        .json<{ entries: { targetId: string }[] }>()
        .entries.filter((e) => e.targetId === gone.uid),
    ).toHaveLength(1);
  });

  it('removes a phone number in the organisation named by clientId', async () => {
    const staff = await createUser(t, {
      role: 'ORGANIZATION_GENERAL',
      organizationId: w.orgA,
      phoneNumber: '+819011112222',
    });
    expect(
      (
        await call('ORGANIZATION_OWNER', 'DELETE', `/v2/user/${staff.uid}/phoneNumber`, {
          clientId: w.orgB,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call('ORGANIZATION_GENERAL', 'DELETE', `/v2/user/${staff.uid}/phoneNumber`, {
          clientId: w.orgA,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('ORGANIZATION_OWNER', 'DELETE', `/v2/user/${staff.uid}/phoneNumber`, {
          clientId: w.orgA,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await t.db.query('SELECT phone_number FROM users WHERE id = $1', [staff.uid]))[0],
    ).toEqual({ phone_number: null });
    expect(await audits('user.phoneRemove', staff.uid)).toBe(1);
  });
});
