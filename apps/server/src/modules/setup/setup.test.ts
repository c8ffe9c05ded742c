import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCHEDULE, type SetupProgress, type TokenPair } from '@wearable/domain';
import {
  createBracelet,
  createGateway,
  createGroup,
  createWearer,
} from '../../testing/factories.js';
import { mailsIn } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';

/**
 * Issue 35: a platform owner creates an organisation with its owner's invitation; the owner
 * registers and follows the setup checklist, whose progress the server computes from the data,
 * up to a test alert that is notified and confirmed.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'http://console.example.test' });
  w = await buildWorld(t);
});
afterAll(() => t.close());

let n = 0;
const address = (label: string) => `${label}-${++n}@new-customer.example.test`;
const as = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
const create = (who: ActorName, payload: object) =>
  t.app.inject({ method: 'POST', url: '/v2/client', headers: w.users[who].headers, payload });
const setupOf = (id: string, headers: { authorization: string }) =>
  t.app.inject({ url: `/v2/client/${id}/setup`, headers });
const done = (p: SetupProgress) => Object.fromEntries(p.steps.map((s) => [s.step, s.done]));

async function registerOwner(email: string): Promise<{ headers: { authorization: string } }> {
  const link = (await mailsIn(t.ctx, email)).at(-1)?.links.find((l) => l.includes('/verify#'));
  const token = new URL(link ?? 'http://x').hash.slice('#invite='.length);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/user/register',
    payload: {
      token,
      email,
      name: '新井 太郎',
      password: 'a-long-password-2026',
      agreedToTerms: true,
    },
  });
  expect(res.statusCode).toBe(200);
  return { headers: as(res.json<TokenPair>().accessToken) };
}

describe('creating an organisation (POST /v2/client)', () => {
  it('a care home with its owner invited: the mail names it, the registration form is pre-filled', async () => {
    const email = address('owner');
    const res = await create('ALL_OWNER', {
      name: 'さくら苑',
      kind: 'CARE_HOME',
      timeZone: 'Asia/Tokyo',
      owner: { email, name: '新井 太郎' },
    });
    expect(res.statusCode).toBe(201);
    const org = res.json<{ id: string; kind: string; invitedOwner: string }>();
    expect(org).toMatchObject({ name: 'さくら苑', kind: 'CARE_HOME', invitedOwner: email });

    const [mail] = await mailsIn(t.ctx, email);
    expect(mail?.text).toContain('「さくら苑」の組織管理者');
    // The plain-text part stands on its own: no button is spoken of, the link is there.
    expect(mail?.text).not.toContain('ボタン');
    expect(mail?.links.some((l) => l.includes('/verify#invite='))).toBe(true);
    const token = new URL(mail?.links.find((l) => l.includes('/verify#')) ?? '').hash.slice(8);
    const preview = await t.app.inject({
      method: 'POST',
      url: '/v2/user/invitation/inspect',
      payload: { token },
    });
    expect(preview.json()).toMatchObject({
      role: 'ORGANIZATION_OWNER',
      organizationName: 'さくら苑',
      name: '新井 太郎',
    });
    const read = await t.app.inject({
      url: `/v2/client/${org.id}`,
      headers: w.users.ALL_OWNER.headers,
    });
    expect(read.json()).toMatchObject({ kind: 'CARE_HOME', timeZone: 'Asia/Tokyo' });
  });

  it.each([
    [{ name: 'x', kind: 'HOSPITAL' }, 'kind'],
    [{ name: '' }, 'name'],
    [{ name: 'x', owner: { email: 'not-an-address' } }, 'owner.email'],
    [{ name: 'x', owner: { email: 'a@example.test', role: 'ALL_OWNER' } }, 'role'],
    [{ name: 'x', timeZone: 'Mars/Base' }, 'timeZone'],
  ])('refuses %j with a 400 naming %s', async (payload, field) => {
    const res = await create('ALL_OWNER', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('an owner address that has an account: 409, and no organisation is left behind', async () => {
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    const res = await create('ALL_OWNER', {
      name: '重複',
      owner: { email: w.users.ORGANIZATION_OWNER.email },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    expect(res.json().message).toContain('owner.email');
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it.each(ACTOR_NAMES.filter((a) => a !== 'ALL_OWNER'))('%s may not create one', async (who) => {
    const res = await create(who, { name: `by ${who}` });
    expect(res.statusCode).toBe(403);
  });
});

describe('the kind picks the alert defaults', () => {
  it.each([
    ['CARE_HOME', { HEATSTROKE: false, AWAKENING_ALERT: true }],
    ['CONSTRUCTION_SITE', { HEATSTROKE: true, AWAKENING_ALERT: false }],
    ['OTHER', { HEATSTROKE: true, AWAKENING_ALERT: true }],
  ])('%s', async (kind, expected) => {
    const res = await create('ALL_OWNER', { name: `種類 ${kind}`, kind });
    const orgId = res.json<{ id: string }>().id;
    const wearer = await createWearer(t, { organizationId: orgId });
    const list = await t.app.inject({
      url: `/v2/user/alertSettings/list?uid=${wearer.uid}`,
      headers: w.users.ALL_OWNER.headers,
    });
    const enabled = list.json<{ settings: { settings: { enabled: Record<string, boolean> } }[] }>()
      .settings[0]?.settings.enabled;
    expect(enabled).toMatchObject(expected);
  });
});

describe('the setup checklist, from nothing to a confirmed test alert', () => {
  it('each step turns done when its data exists; the test alert reaches the recipient and is confirmed', async () => {
    const email = address('site-owner');
    const created = await create('ALL_OWNER', {
      name: '第三現場',
      kind: 'CONSTRUCTION_SITE',
      owner: { email, locale: 'en' },
    });
    const orgId = created.json<{ id: string }>().id;
    const owner = await registerOwner(email);

    const first = await setupOf(orgId, owner.headers);
    expect(first.statusCode).toBe(200);
    expect(first.json<SetupProgress>()).toMatchObject({ kind: 'CONSTRUCTION_SITE', done: false });
    expect(Object.values(done(first.json<SetupProgress>())).every((d) => d === false)).toBe(true);

    const group = await createGroup(t, { organizationId: orgId });
    const gateway = await createGateway(t, { organizationId: orgId, groupId: group.id });
    await createBracelet(t, { organizationId: orgId });
    const wearer = await createWearer(t, { organizationId: orgId, groupId: group.id, gateway });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${group.id}/alertNoticeSettings`,
      headers: owner.headers,
      payload: {
        recipients: [
          {
            phoneNumber: '+819012340000',
            channel: 'SMS',
            alertTypes: ['SOS_CALL'],
            schedule: DEFAULT_SCHEDULE,
            order: 1,
          },
        ],
      },
    });
    expect(put.statusCode).toBe(200);
    const middle = (await setupOf(orgId, owner.headers)).json<SetupProgress>();
    expect(done(middle)).toEqual({
      groups: true,
      gateways: true,
      bracelets: true,
      wearers: true,
      pairing: true,
      recipients: true,
      testAlert: false,
    });

    const test = await t.app.inject({
      method: 'POST',
      url: `/v2/client/${orgId}/testAlert`,
      headers: owner.headers,
      payload: { uid: wearer.uid },
    });
    expect(test.statusCode).toBe(201);
    const { alertId } = test.json<{ alertId: string }>();
    // While it is open a second one is refused, naming why.
    const again = await t.app.inject({
      method: 'POST',
      url: `/v2/client/${orgId}/testAlert`,
      headers: owner.headers,
      payload: { uid: wearer.uid },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('open SOS');

    // The notice leaves through the normal path (the alert outbox), marked as a test.
    await vi.waitFor(
      async () => {
        const rows = await t.db.query<{ status: string; text: string; recipient: string }>(
          'SELECT status, text, recipient FROM notifications WHERE alert_id = $1',
          [alertId],
        );
        expect(rows[0]).toMatchObject({ recipient: '+819012340000' });
        expect(['sent', 'delivered']).toContain(rows[0]?.status);
        expect(rows[0]?.text).toMatch(/^(【テスト・|\[Test · |\[Test・)/);
      },
      { timeout: 10_000, interval: 100 },
    );
    const notConfirmed = (await setupOf(orgId, owner.headers)).json<SetupProgress>();
    expect(notConfirmed.lastTestAlert).toMatchObject({ id: alertId, confirmed: false });
    expect(notConfirmed.done).toBe(false);

    const confirm = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: owner.headers,
      payload: { alertId, reason: 'FALSE_ALARM' },
    });
    expect(confirm.statusCode).toBeLessThan(300);
    const last = (await setupOf(orgId, owner.headers)).json<SetupProgress>();
    expect(last.done).toBe(true);
    expect(last.lastTestAlert).toMatchObject({ id: alertId, confirmed: true });
    expect(last.lastTestAlert?.noticesSent).toBeGreaterThan(0);
  });
});

describe('who may read the checklist and send a test alert (organisation A)', () => {
  const TABLE: Record<ActorName, { read: number; test: number }> = {
    ALL_OWNER: { read: 200, test: 201 },
    ALL_GENERAL: { read: 200, test: 403 },
    ORGANIZATION_OWNER: { read: 200, test: 201 },
    ORGANIZATION_GENERAL: { read: 200, test: 403 },
    // A group manager may test their own group's wearer (w1 is in g1).
    ORGANIZATION_GROUP: { read: 200, test: 201 },
    GROUP_MANAGER_OTHER_GROUP: { read: 200, test: 404 },
    OTHER_ORG_OWNER: { read: 404, test: 404 },
    PERSONAL_LINKED: { read: 403, test: 403 },
    PERSONAL_UNLINKED: { read: 403, test: 403 },
    PERSONAL_SELF: { read: 403, test: 403 },
  };
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const headers = w.users[who].headers;
    expect((await setupOf(w.orgA, headers)).statusCode).toBe(TABLE[who].read);
    const test = await t.app.inject({
      method: 'POST',
      url: `/v2/client/${w.orgA}/testAlert`,
      headers,
      payload: { uid: w.w1.uid },
    });
    expect(test.statusCode).toBe(TABLE[who].test);
    if (test.statusCode === 201) {
      // Confirmed at once, so the next role's test can open.
      await t.app.inject({
        method: 'POST',
        url: '/v2/alert/confirm',
        headers: w.users.ALL_OWNER.headers,
        payload: { alertId: test.json<{ alertId: string }>().alertId },
      });
    }
  });

  it("a wearer of another organisation under this organisation's id is unknown (404)", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v2/client/${w.orgA}/testAlert`,
      headers: w.users.ALL_OWNER.headers,
      payload: { uid: w.wB.uid },
    });
    expect(res.statusCode).toBe(404);
  });

  it.each([[{}], [{ uid: '' }], [{ uid: 'x', extra: 1 }]])(
    'refuses %j with a 400',
    async (payload) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v2/client/${w.orgA}/testAlert`,
        headers: w.users.ORGANIZATION_OWNER.headers,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/uid|extra/);
    },
  );
});
