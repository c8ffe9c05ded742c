import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertWritesRepository } from '../alerts/alert-writes.repository.js';
import { ALERT_POLICY_DEFAULTS, DEFAULT_SCHEDULE, pushNoticePayload } from '@wearable/domain';
import { ACTOR_NAMES, buildWorld, type World } from '../../testing/world.js';
import { createUser, createWearer, type WearerRecord } from '../../testing/factories.js';
import { type FakePushService, startFakePushService } from '../../testing/fake-push-service.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { embeddedProvider } from '../notifications/notification-provider.js';
import { notificationsService } from '../notifications/notifications.service.js';
import { pushService } from './push.service.js';

/**
 * Web Push told as a story through the real app (issue 38 item 1): a staff member subscribes a browser on
 * the account page, an SOS opens through the gateway endpoint, the push reaches a push service on this
 * machine (testing/fake-push-service.ts: RFC 8030 delivery, the RFC 8292 VAPID JWT verified and the RFC 8291
 * aes128gcm body decrypted with the browser key pair the test made), 確認 confirms through the normal API
 * with the person's own session, and the escalation's other channels stop. Only the push service is faked.
 */
let t: TestApp;
let w: World;
let fake: FakePushService;

beforeAll(async () => {
  t = await createTestApp({
    push: {
      vapidPrivateKey: undefined,
      vapidSubject: 'mailto:ops@example.test',
      allowPrivate: true,
    },
  });
  w = await buildWorld(t);
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sos(wearer: WearerRecord): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${wearer.gateway.id}:${wearer.gateway.credential}` },
    payload: {
      events: [
        { serialNumber: wearer.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
      ],
    },
  });
  expect(res.json()).toMatchObject({ accepted: 1 });
  return until(
    async () =>
      (
        await t.db.query<{ id: string }>(
          "SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'",
          [wearer.uid],
        )
      )[0]?.id,
  );
}

const attempts = (alertId: string) =>
  t.db.query<{
    step: number;
    channel: string;
    status: string;
    provider: string;
    provider_id: string | null;
    error: string | null;
    user_id: string | null;
  }>(
    `SELECT step, channel, status, provider, provider_id, error, user_id FROM notifications
      WHERE alert_id = $1 ORDER BY created_at, channel`,
    [alertId],
  );

const escalationStarted = (alertId: string) =>
  until(async () =>
    (await t.db.query('SELECT 1 FROM notification_escalations WHERE alert_id = $1', [alertId]))
      .length
      ? true
      : undefined,
  );

async function subscribe(
  headers: { authorization: string },
  ua = 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36',
) {
  const body = fake.subscription();
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/user/push/subscriptions',
    headers: { ...headers, 'user-agent': ua },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json<{ id: string }>().id, endpoint: body.endpoint };
}

async function setRecipients(groupId: string, recipients: object[]) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${groupId}/alertNoticeSettings`,
    headers: w.users.ALL_OWNER.headers,
    payload: { recipients },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const later = (ms: number) =>
  notificationsService({ ...t.ctx, now: () => new Date(Date.now() + ms) }, embeddedProvider);

describe('an SOS reaches a subscribed browser by Web Push and is confirmed from it', () => {
  it('push first, SMS at step 2: the push says who, what and where; 確認 stops the SMS', async () => {
    const staff = w.users.ORGANIZATION_GENERAL;
    const sub = await subscribe(staff.headers);
    await setRecipients(w.g1, [
      {
        userId: staff.uid,
        channel: 'PUSH',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 1,
      },
      {
        phoneNumber: '+819077770001',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 2,
      },
    ]);
    const before = fake.received.length;
    const alertId = await sos(w.w1);
    await fake.waitFor(before + 1);
    const got = fake.received[before]!;
    expect(got.subscriptionId).toBe(sub.endpoint.split('/').at(-1));
    // RFC 8292: the JWT is for the push service's origin, signed by the key the account page hands out.
    const key = await t.app.inject({ url: '/v2/user/push/key', headers: staff.headers });
    expect(got.vapidKey).toBe(key.json<{ publicKey: string }>().publicKey);
    expect(got.claims.aud).toBe(fake.origin);
    expect(got.claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(got.headers.urgency).toBe('high');
    // The decrypted payload: the alert and the words of its SMS, never a token.
    const payload = pushNoticePayload.parse(JSON.parse(got.plaintext));
    expect(payload).toMatchObject({ alertId, emergency: true, confirmable: true });
    expect(payload.title).toContain('緊急');
    expect(payload.title).toContain(w.w1.name);
    expect(payload.body).toContain('SOS');
    const [group] = await t.db.query<{ name: string }>('SELECT name FROM groups WHERE id = $1', [
      w.g1,
    ]);
    expect(payload.body).toContain(group!.name);
    expect(got.plaintext).not.toMatch(/token|Bearer|eyJ/);
    expect(payload.url).toContain(w.w1.uid);

    await escalationStarted(alertId);
    expect(await attempts(alertId)).toMatchObject([
      {
        step: 1,
        channel: 'PUSH',
        status: 'sent',
        provider: 'web-push',
        provider_id: '201',
        user_id: staff.uid,
      },
    ]);
    // 確認 in the notification: the console's confirm route calls the normal API with the person's session.
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: staff.headers,
      payload: { alertId },
    });
    expect(confirmed.json()).toEqual({ alertId, result: 'confirmed' });
    await later(10 * t.ctx.config.escalationAfterSeconds * 1000).sweep(w.orgA);
    expect((await attempts(alertId)).map((a) => a.channel)).toEqual(['PUSH']);
    const [esc] = await t.db.query<{ done_reason: string }>(
      'SELECT done_reason FROM notification_escalations WHERE alert_id = $1',
      [alertId],
    );
    expect(esc?.done_reason).toBe('confirmed');
  });

  it('unconfirmed, the escalation goes on to the SMS step', async () => {
    const wearer = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
    const before = fake.received.length;
    const alertId = await sos(wearer);
    await fake.waitFor(before + 1);
    await escalationStarted(alertId);
    await later(t.ctx.config.escalationAfterSeconds * 1000 + 1000).sweep(w.orgA);
    expect((await attempts(alertId)).map((a) => [a.step, a.channel])).toEqual([
      [1, 'PUSH'],
      [2, 'SMS'],
    ]);
  });
});

describe('outside EMERGENCY, a push goes through the notice policy like an SMS', () => {
  it('the first at once, the next held for the group window and sent as one grouped push without 確認', async () => {
    const staff = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: w.orgA });
    const sub = await subscribe(staff.headers);
    const id = sub.endpoint.split('/').at(-1);
    await setRecipients(w.g2, [
      {
        userId: staff.uid,
        channel: 'PUSH',
        alertTypes: ['HEART_RATE'],
        schedule: DEFAULT_SCHEDULE,
        order: 1,
      },
    ]);
    const open = async () => {
      const wearer = await createWearer(t, { organizationId: w.orgA, groupId: w.g2 });
      const at = new Date();
      const alert = await alertWritesRepository(t.db).insertOpen({
        id: randomUUID(),
        organizationId: w.orgA,
        groupId: w.g2,
        wearerId: wearer.uid,
        braceletId: wearer.bracelet.id,
        type: 'HEART_RATE',
        level: 'CRITICAL',
        openedAt: at,
        raisedAt: at,
        cause: {
          rule: 'test',
          values: {},
          windowStart: at.toISOString(),
          windowEnd: at.toISOString(),
        },
        notify: true,
      });
      if (!alert) throw new Error('alert not opened');
      await later(0).alertOpened(alert.id);
      return alert.id;
    };
    const first = await open();
    const second = await open();
    const log = await t.db.query<{ alert_id: string; reason: string; status: string }>(
      `SELECT alert_id, reason, status FROM notifications WHERE user_id = $1 AND channel = 'PUSH' ORDER BY created_at`,
      [staff.uid],
    );
    expect(log).toEqual([
      { alert_id: first, reason: 'first', status: 'sent' },
      { alert_id: second, reason: 'held', status: 'withheld' },
    ]);
    const mine = () => fake.received.filter((r) => r.subscriptionId === id);
    expect(mine()).toHaveLength(1);
    expect(JSON.parse(mine()[0]!.plaintext)).toMatchObject({
      alertId: first,
      confirmable: true,
      emergency: false,
    });
    expect(mine()[0]!.headers.urgency).toBe('normal');
    const windowMinutes = ALERT_POLICY_DEFAULTS.groupWindowMinutes;
    await later((windowMinutes + 1) * 60_000).sweep(w.orgA);
    await fake.waitFor(fake.received.indexOf(mine()[0]!) + 2);
    const grouped = mine()[1];
    expect(JSON.parse(grouped!.plaintext)).toMatchObject({
      alertId: null,
      confirmable: false,
      url: '/alert-histories',
    });
  });
});

describe('what the push service answers', () => {
  it('410 Gone removes the subscription; the attempt is logged as failed with the answer', async () => {
    const person = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: w.orgA });
    const sub = await subscribe(person.headers);
    fake.answers.push(410);
    const result = await pushService(t.ctx).pushToPerson(
      person.uid,
      { alertId: null, title: 't', body: 'b', url: '/', emergency: false, confirmable: false },
      'topic-410',
    );
    expect(result).toMatchObject({ status: 'failed', providerId: '410' });
    expect(result.error).toContain('subscription removed');
    const list = await t.app.inject({
      url: '/v2/user/push/subscriptions',
      headers: person.headers,
    });
    expect(
      list.json<{ subscriptions: { id: string }[] }>().subscriptions.map((s) => s.id),
    ).not.toContain(sub.id);
  });

  it('404 removes it too', async () => {
    const person = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: w.orgA });
    await subscribe(person.headers);
    fake.answers.push(404);
    await pushService(t.ctx).pushToPerson(
      person.uid,
      { alertId: null, title: 't', body: 'b', url: '/', emergency: false, confirmable: false },
      'topic-404',
    );
    const rows = await t.db.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [
      person.uid,
    ]);
    expect(rows).toHaveLength(0);
  });

  for (const status of [429, 503]) {
    it(`${status} is retried with the same Topic and delivered once`, async () => {
      const person = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: w.orgA });
      const sub = await subscribe(person.headers);
      const id = sub.endpoint.split('/').at(-1);
      fake.answers.push(status);
      const result = await pushService(t.ctx).pushToPerson(
        person.uid,
        { alertId: null, title: 't', body: 'b', url: '/', emergency: false, confirmable: false },
        `topic-${status}`,
      );
      expect(result).toMatchObject({ status: 'sent', providerId: '201' });
      const mine = fake.received.filter((r) => r.subscriptionId === id);
      expect(mine.map((r) => r.status)).toEqual([status, 201]);
      expect(new Set(mine.map((r) => r.headers.topic)).size).toBe(1);
    });
  }

  it('a 400 (the push service refuses the request) is not retried', async () => {
    const person = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: w.orgA });
    const sub = await subscribe(person.headers);
    const id = sub.endpoint.split('/').at(-1);
    fake.answers.push(400);
    const result = await pushService(t.ctx).pushToPerson(
      person.uid,
      { alertId: null, title: 't', body: 'b', url: '/', emergency: false, confirmable: false },
      'topic-400',
    );
    expect(result.status).toBe('failed');
    expect(fake.received.filter((r) => r.subscriptionId === id)).toHaveLength(1);
  });

  it('signing out everywhere stops the pushes to that person; a session that merely expired does not', async () => {
    const person = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: w.orgA });
    await subscribe(person.headers);
    const push = {
      alertId: null,
      title: 't',
      body: 'b',
      url: '/',
      emergency: false,
      confirmable: false,
    };
    expect((await pushService(t.ctx).pushToPerson(person.uid, push, 'x')).status).toBe('sent');
    const out = await t.app.inject({
      method: 'POST',
      url: '/v2/user/sessions/signOutEverywhere',
      headers: person.headers,
    });
    expect(out.statusCode).toBe(200);
    expect(await pushService(t.ctx).pushToPerson(person.uid, push, 'y')).toMatchObject({
      status: 'failed',
      error: 'no browser is subscribed to push',
    });
  });
});

describe('the account page endpoints, role by role and across organisations', () => {
  it('every role reads the key, subscribes, lists and removes only its own browsers', async () => {
    for (const name of ACTOR_NAMES) {
      const u = w.users[name];
      const key = await t.app.inject({ url: '/v2/user/push/key', headers: u.headers });
      expect(key.statusCode, name).toBe(200);
      expect(key.json<{ publicKey: string }>().publicKey).toMatch(/^B[A-Za-z0-9_-]{86}$/);
      const sub = await subscribe(u.headers);
      const list = await t.app.inject({ url: '/v2/user/push/subscriptions', headers: u.headers });
      expect(list.statusCode, name).toBe(200);
      const mine = list.json<{
        subscriptions: { id: string; browser: string; os: string; current: boolean }[];
      }>().subscriptions;
      expect(
        mine.find((s) => s.id === sub.id),
        name,
      ).toMatchObject({ browser: 'Chrome', os: 'Android', current: true });
      // Never the endpoint or the keys in an answer.
      expect(list.body).not.toContain(fake.origin);
    }
    // Another person's subscription, in this organisation or another, is the same 404 as an unknown one.
    const owners = await t.app.inject({
      url: '/v2/user/push/subscriptions',
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    const ownerSub = owners.json<{ subscriptions: { id: string }[] }>().subscriptions[0]!.id;
    for (const name of ['OTHER_ORG_OWNER', 'ORGANIZATION_GENERAL', 'ALL_OWNER'] as const) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/v2/user/push/subscriptions/${ownerSub}`,
        headers: w.users[name].headers,
      });
      expect(res.statusCode, name).toBe(404);
    }
    const own = await t.app.inject({
      method: 'DELETE',
      url: `/v2/user/push/subscriptions/${ownerSub}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(own.statusCode).toBe(204);
  });

  it('without a session: 401', async () => {
    expect((await t.app.inject({ url: '/v2/user/push/key' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v2/user/push/subscriptions' })).statusCode).toBe(401);
  });

  it('refuses an http:// endpoint unless the operator allows private push endpoints, and bad keys', async () => {
    const u = w.users.ORGANIZATION_GENERAL;
    t.ctx.config.push.allowPrivate = false;
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/user/push/subscriptions',
        headers: u.headers,
        payload: fake.subscription(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BAD_PUSH_ENDPOINT' });
    } finally {
      t.ctx.config.push.allowPrivate = true;
    }
    const bad = fake.subscription();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/user/push/subscriptions',
      headers: u.headers,
      payload: { ...bad, keys: { ...bad.keys, p256dh: 'A'.repeat(87) } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('p256dh');
  });

  it('a PUSH recipient is a staff member of the organisation, never a number', async () => {
    const asNumber = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${w.g2}/alertNoticeSettings`,
      headers: w.users.ALL_OWNER.headers,
      payload: {
        recipients: [
          {
            phoneNumber: '+819077770009',
            channel: 'PUSH',
            alertTypes: ['SOS_CALL'],
            schedule: DEFAULT_SCHEDULE,
            order: 1,
          },
        ],
      },
    });
    expect(asNumber.statusCode).toBe(400);
    expect(asNumber.body).toContain('PUSH goes to a staff member');
    const otherOrg = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${w.g2}/alertNoticeSettings`,
      headers: w.users.ALL_OWNER.headers,
      payload: {
        recipients: [
          {
            userId: w.users.OTHER_ORG_OWNER.uid,
            channel: 'PUSH',
            alertTypes: ['SOS_CALL'],
            schedule: DEFAULT_SCHEDULE,
            order: 1,
          },
        ],
      },
    });
    expect(otherOrg.statusCode).toBe(400);
  });
});
