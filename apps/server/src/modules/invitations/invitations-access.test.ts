import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailsIn } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

let n = 0;
const address = () => `role-table-${++n}@invitee.example.test`;
const invite = (who: ActorName, payload: object) =>
  t.app.inject({ method: 'POST', url: '/v2/user/invite', headers: w.users[who].headers, payload });
const invitationsTo = (email: string) =>
  t.db.query('SELECT id FROM invitations WHERE email = $1', [email]);

/**
 * Who may invite whom, over the test world. 201: invited; 403: may not grant that role (or holds no
 * invitation permission); 404: the organisation, group or wearer is out of reach (the same as unknown).
 */
const INVITE_TABLE: Record<string, { payload: () => object; expect: Record<ActorName, number> }> = {
  'staff of organisation A': {
    payload: () => ({ role: 'ORGANIZATION_GENERAL', clientId: w.orgA }),
    expect: {
      ALL_OWNER: 201,
      ALL_GENERAL: 403,
      ORGANIZATION_OWNER: 201,
      ORGANIZATION_GENERAL: 403,
      ORGANIZATION_GROUP: 403,
      GROUP_MANAGER_OTHER_GROUP: 403,
      OTHER_ORG_OWNER: 404,
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    },
  },
  'an owner of organisation A': {
    payload: () => ({ role: 'ORGANIZATION_OWNER', clientId: w.orgA }),
    expect: {
      ALL_OWNER: 201,
      ALL_GENERAL: 403,
      ORGANIZATION_OWNER: 201,
      ORGANIZATION_GENERAL: 403,
      ORGANIZATION_GROUP: 403,
      GROUP_MANAGER_OTHER_GROUP: 403,
      OTHER_ORG_OWNER: 404,
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    },
  },
  'a manager of group 1': {
    payload: () => ({ role: 'ORGANIZATION_GROUP', clientId: w.orgA, groupIds: [w.g1] }),
    expect: {
      ALL_OWNER: 201,
      ALL_GENERAL: 403,
      ORGANIZATION_OWNER: 201,
      ORGANIZATION_GENERAL: 403,
      ORGANIZATION_GROUP: 403,
      GROUP_MANAGER_OTHER_GROUP: 403,
      OTHER_ORG_OWNER: 404,
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    },
  },
  'platform staff': {
    payload: () => ({ role: 'ALL_GENERAL' }),
    expect: {
      ALL_OWNER: 201,
      ALL_GENERAL: 403,
      ORGANIZATION_OWNER: 403,
      ORGANIZATION_GENERAL: 403,
      ORGANIZATION_GROUP: 403,
      GROUP_MANAGER_OTHER_GROUP: 403,
      OTHER_ORG_OWNER: 403,
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    },
  },
  'a family member of w1 (group 1)': {
    payload: () => ({ role: 'PERSONAL', wearerId: w.w1.uid }),
    expect: {
      ALL_OWNER: 201,
      ALL_GENERAL: 403,
      ORGANIZATION_OWNER: 201,
      ORGANIZATION_GENERAL: 201,
      ORGANIZATION_GROUP: 201,
      GROUP_MANAGER_OTHER_GROUP: 404,
      OTHER_ORG_OWNER: 404,
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    },
  },
};

describe('POST /v2/user/invite: who may invite whom', () => {
  for (const [whom, row] of Object.entries(INVITE_TABLE)) {
    it.each(ACTOR_NAMES)(`%s inviting ${whom}`, async (who) => {
      const email = address();
      const res = await invite(who, { email, ...row.payload() });
      expect(res.statusCode, res.body).toBe(row.expect[who]);
      expect(await invitationsTo(email)).toHaveLength(res.statusCode === 201 ? 1 : 0);
    });
  }

  it('an owner cannot place staff or groups in another organisation', async () => {
    expect(
      (
        await invite('ORGANIZATION_OWNER', {
          email: address(),
          role: 'ORGANIZATION_GENERAL',
          clientId: w.orgB,
        })
      ).statusCode,
    ).toBe(404);
    const foreignGroup = await invite('ALL_OWNER', {
      email: address(),
      role: 'ORGANIZATION_GROUP',
      clientId: w.orgB,
      groupIds: [w.g1],
    });
    expect(foreignGroup.statusCode).toBe(400);
    expect(foreignGroup.json().issues).toEqual([
      { path: 'body.groupIds', message: expect.stringContaining(w.g1) },
    ]);
  });
});

describe('POST /v2/user/invitation/resend: the same rule as inviting', () => {
  let invitationId: string;
  beforeAll(async () => {
    invitationId = (
      await invite('ORGANIZATION_OWNER', { email: address(), role: 'ORGANIZATION_GENERAL' })
    ).json().id;
  });
  const RESEND: Record<ActorName, number> = {
    ALL_OWNER: 201,
    ALL_GENERAL: 403,
    ORGANIZATION_OWNER: 201,
    ORGANIZATION_GENERAL: 403,
    ORGANIZATION_GROUP: 403,
    GROUP_MANAGER_OTHER_GROUP: 403,
    OTHER_ORG_OWNER: 404,
    PERSONAL_LINKED: 403,
    PERSONAL_UNLINKED: 403,
    PERSONAL_SELF: 403,
  };
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/user/invitation/resend',
      headers: w.users[who].headers,
      payload: { invitationId },
    });
    expect(res.statusCode, res.body).toBe(RESEND[who]);
    if (res.statusCode === 201) invitationId = res.json().id;
  });
});

describe('bad input is a 4xx naming the field, and nothing is written or mailed', () => {
  const CASES: Array<[string, object, string]> = [
    ['no address', { email: undefined, role: 'ORGANIZATION_GENERAL' }, 'body.email'],
    ['not an address', { email: 'not-an-address', role: 'ORGANIZATION_GENERAL' }, 'body.email'],
    ['unknown role', { role: 'KING' }, 'body.role'],
    ['a wearer who signs in', { role: 'PERSONAL_SELF' }, 'body.role'],
    ['a group manager without groups', { role: 'ORGANIZATION_GROUP' }, 'body.groupIds'],
    [
      'groups for general staff',
      { role: 'ORGANIZATION_GENERAL', groupIds: ['grp-x'] },
      'body.groupIds',
    ],
    ['a family member without a wearer', { role: 'PERSONAL' }, 'body.wearerId'],
    ['a wearer for staff', { role: 'ORGANIZATION_GENERAL', wearerId: 'usr-x' }, 'body.wearerId'],
    [
      'an organisation for platform staff',
      { role: 'ALL_GENERAL', clientId: 'org-x' },
      'body.clientId',
    ],
    ['an unknown language', { role: 'ORGANIZATION_GENERAL', locale: 'fr' }, 'body.locale'],
    ['an empty name', { role: 'ORGANIZATION_GENERAL', name: ' ' }, 'body.name'],
  ];
  it.each(CASES)('%s', async (_, payload, path) => {
    const email = address();
    const res = await invite('ALL_OWNER', { email, ...payload });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: { path: string }[] }>().issues.map((i) => i.path)).toContain(path);
    expect(await invitationsTo(email)).toEqual([]);
    expect(await mailsIn(t.ctx, email)).toEqual([]);
  });

  it('platform staff inviting organisation staff must name the organisation', async () => {
    const res = await invite('ALL_OWNER', { email: address(), role: 'ORGANIZATION_GENERAL' });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([{ path: 'body.clientId', message: expect.any(String) }]);
  });

  it('registration: a short password, no consent, no name, an unknown field value', async () => {
    const email = address();
    await invite('ORGANIZATION_OWNER', { email, role: 'ORGANIZATION_GENERAL' });
    const link = (await mailsIn(t.ctx, email)).at(-1)?.links.find((l) => l.includes('#invite='));
    const token = new URL(link ?? 'http://x/#invite=').hash.slice('#invite='.length);
    const good = {
      token,
      email,
      name: '佐藤',
      password: 'a-long-password-2026',
      agreedToTerms: true,
    };
    const BAD: Array<[object, string]> = [
      [{ password: 'short-11chr' }, 'body.password'],
      [{ agreedToTerms: false }, 'body.agreedToTerms'],
      [{ name: '' }, 'body.name'],
      [{ email: 'nope' }, 'body.email'],
      [{ token: 'short' }, 'body.token'],
      [{ locale: 'de' }, 'body.locale'],
    ];
    for (const [change, path] of BAD) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/user/register',
        payload: { ...good, ...change },
      });
      expect(res.statusCode, path).toBe(400);
      expect(res.json<{ issues: { path: string }[] }>().issues.map((i) => i.path)).toContain(path);
    }
    expect(await t.db.query('SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);
    // Nothing was half-used: the same link still registers.
    expect(
      (await t.app.inject({ method: 'POST', url: '/v2/user/register', payload: good })).statusCode,
    ).toBe(200);
  });

  it('inspect: a malformed token is a 400 naming it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/user/invitation/inspect',
      payload: { token: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues[0].path).toBe('body.token');
  });
});
