import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE } from '@wearable/domain';
import { createUser, type UserRecord } from '../../testing/factories.js';
import { mailsIn } from '../../testing/mail-outbox.js';
import { buildWorld, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Every change to people, roles, groups, sign-in settings and alert settings is in the audit log, written in
 * the change's transaction. Each case makes one change through the real endpoint and reads it back through
 * GET /v2/audit as the organisation's owner.
 */
let t: TestApp;
let w: World;
let owner: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  owner = w.users.ORGANIZATION_OWNER.headers;
});
afterAll(() => t.close());

let n = 0;
const unique = () => `${Date.now().toString(36)}-${++n}`;
const call = async (
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers = owner,
) => {
  const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
};
type Entry = {
  kind: string;
  clientId: string | null;
  actorId: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
};
/** The newest entries of a kind about a target, as the owner of organisation A reads them. */
async function entries(kind: string, targetId: string): Promise<Entry[]> {
  const res = await t.app.inject({
    url: `/v2/audit?clientId=${w.orgA}&kind=${kind}&pageSize=200`,
    headers: owner,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ entries: Entry[] }>().entries.filter((e) => e.targetId === targetId);
}
const staff = (
  role: 'ORGANIZATION_GENERAL' | 'ORGANIZATION_GROUP' | 'ORGANIZATION_OWNER',
  groups: string[] = [],
): Promise<UserRecord> =>
  createUser(t, {
    role,
    organizationId: w.orgA,
    ...(groups.length ? { managedGroupIds: groups } : {}),
  });

describe('the audit log records every change to people, roles, groups and settings', () => {
  it('invitations and the registration through one', async () => {
    const email = `audit-${unique()}@invitee.example.test`;
    const sent = (
      await call('POST', '/v2/user/invite', { email, role: 'ORGANIZATION_GENERAL' })
    ).json<{ id: string }>();
    const [invited] = await entries('member.invite', sent.id);
    expect(invited).toMatchObject({
      clientId: w.orgA,
      actorId: w.users.ORGANIZATION_OWNER.uid,
      after: { email, role: 'ORGANIZATION_GENERAL' },
    });

    const resent = (
      await call('POST', '/v2/user/invitation/resend', { invitationId: sent.id })
    ).json<{ id: string }>();
    expect(await entries('member.invite', resent.id)).toHaveLength(1);

    const link =
      (await mailsIn(t.ctx, email)).at(-1)?.links.find((l) => l.includes('/verify#')) ?? '';
    const token = new URL(link).hash.slice('#invite='.length);
    const registered = await t.app.inject({
      method: 'POST',
      url: '/v2/user/register',
      payload: {
        token,
        email,
        name: '監査 花子',
        password: 'a-long-password-2026',
        agreedToTerms: true,
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const accessToken = registered.json<{ accessToken: string }>().accessToken;
    const me = (
      await t.app.inject({ url: '/v2/user', headers: { authorization: `Bearer ${accessToken}` } })
    ).json<{ uid: string }>();
    const [joined] = await entries('member.register', me.uid);
    expect(joined).toMatchObject({
      actorId: me.uid,
      after: { email, role: 'ORGANIZATION_GENERAL', invitationId: resent.id },
    });
  });

  it('role changes, managed groups and removal of a staff member', async () => {
    const m = await staff('ORGANIZATION_GENERAL');
    await call('PATCH', '/v2/user/organization/members', {
      uid: m.uid,
      role: 'ORGANIZATION_GROUP',
      groupIds: [w.g1],
    });
    expect((await entries('member.roleChange', m.uid))[0]).toMatchObject({
      before: { role: 'ORGANIZATION_GENERAL', groupIds: [] },
      after: { role: 'ORGANIZATION_GROUP', groupIds: [w.g1] },
    });
    await call('POST', '/v2/user/group/link', { uid: m.uid, groupId: w.g2 });
    await call('POST', `/v2/user/${m.uid}/group/unlink`, { groupId: w.g1 });
    await call('PATCH', `/v2/user/${m.uid}/group`, { groupIds: [w.g1] });
    const ids = (v: unknown) => [...(v as { groupIds: string[] }).groupIds].sort();
    const groups = (await entries('member.groups', m.uid)).map((e) => [
      ids(e.before),
      ids(e.after),
    ]);
    const both = [w.g1, w.g2].sort();
    // Newest first: set to g1 alone, unlink g1, link g2.
    expect(groups).toEqual([
      [[w.g2], [w.g1]],
      [both, [w.g2]],
      [[w.g1], both],
    ]);
    await call('DELETE', `/v2/user/organization/members?uid=${m.uid}`);
    expect((await entries('member.remove', m.uid))[0]).toMatchObject({
      before: { role: 'ORGANIZATION_GROUP', groupIds: [w.g1] },
      after: null,
    });
  });

  it('a refused change records nothing: the last owner is not demoted', async () => {
    const before = (await entries('member.roleChange', w.users.OTHER_ORG_OWNER.uid)).length;
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/v2/user/organization/members',
      headers: w.users.OTHER_ORG_OWNER.headers,
      payload: { uid: w.users.OTHER_ORG_OWNER.uid, role: 'ORGANIZATION_GENERAL' },
    });
    expect(res.statusCode).toBe(409);
    const all = await t.app.inject({
      url: `/v2/audit?clientId=${w.orgB}&kind=member.roleChange`,
      headers: w.users.OTHER_ORG_OWNER.headers,
    });
    expect(all.json<{ entries: unknown[] }>().entries).toHaveLength(0);
    expect(before).toBe(0);
  });

  it('groups: create, rename, delete, and wearers moved between them', async () => {
    const name = `監査 ${unique()}`;
    const group = (await call('POST', '/v2/group', { clientId: w.orgA, name })).json<{
      id: string;
    }>();
    await call('PATCH', `/v2/group/${group.id}`, { name: `${name} 改` });
    await call('POST', `/v2/group/${group.id}/wearers/move`, { uids: [w.w2.uid] });
    await call('POST', `/v2/group/${w.g2}/wearers/move`, { uids: [w.w2.uid] });
    await call('DELETE', `/v2/group/${group.id}`);
    expect((await entries('group.change', group.id)).map((e) => [e.before, e.after])).toEqual([
      [{ name: `${name} 改` }, null],
      [{ name }, { name: `${name} 改` }],
      [null, { name }],
    ]);
    expect((await entries('wearer.update', w.w2.uid)).slice(0, 2).map((e) => e.after)).toEqual([
      { groupId: w.g2 },
      { groupId: group.id },
    ]);
    // A taken name is refused and leaves no entry.
    const taken = await t.app.inject({
      method: 'POST',
      url: '/v2/group',
      headers: owner,
      payload: { clientId: w.orgA, name: `${name} 改` },
    });
    const again = await t.app.inject({
      method: 'POST',
      url: '/v2/group',
      headers: owner,
      payload: { clientId: w.orgA, name: `${name} 改` },
    });
    expect(taken.statusCode).toBe(201);
    expect(again.statusCode).toBe(409);
    const created = taken.json<{ id: string }>().id;
    expect(await entries('group.change', created)).toHaveLength(1);
  });

  it('alert settings (one wearer and in bulk), notice settings and the TOTP requirement', async () => {
    await call('PATCH', `/v2/client/${w.orgA}/user/alertSetting`, {
      uid: w.w1.uid,
      cooldownMinutes: 20,
    });
    await call('PATCH', `/v2/client/${w.orgA}/users/alertSettings/bulk`, {
      uids: [w.w1.uid, w.w2.uid],
      settings: { cooldownMinutes: 25 },
    });
    expect((await entries('alertSettings.update', w.w1.uid)).length).toBeGreaterThanOrEqual(2);
    expect((await entries('alertSettings.update', w.w2.uid))[0]).toMatchObject({
      after: { cooldownMinutes: 25 },
    });

    await call('PUT', `/v2/group/${w.g1}/alertNoticeSettings`, {
      recipients: [
        {
          phoneNumber: '+819012345678',
          channel: 'SMS',
          alertTypes: ['SOS_CALL'],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
      ],
    });
    expect(await entries('noticeSettings.update', w.g1)).toHaveLength(1);

    await call('PATCH', `/v2/client/${w.orgA}/signInSettings`, { requireTotp: true });
    await call('PATCH', `/v2/client/${w.orgA}/signInSettings`, { requireTotp: false });
    await call('PATCH', `/v2/client/${w.orgA}/signInSettings`, { requireSecondFactor: true });
    await call('PATCH', `/v2/client/${w.orgA}/signInSettings`, { requireSecondFactor: false });
    expect(
      (await entries('signInSettings.update', w.orgA)).map((e) => [
        (e.after as { requireTotp: boolean }).requireTotp,
        (e.after as { requireSecondFactor: boolean }).requireSecondFactor,
      ]),
    ).toEqual([
      [false, false],
      [false, true],
      [false, false],
      [true, false],
    ]);
  });
});
