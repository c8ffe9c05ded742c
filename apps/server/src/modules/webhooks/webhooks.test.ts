import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type WebhookDeliveryList,
  webhookPayload,
  type WebhookView,
  type WebhookWithSecret,
} from '@wearable/domain';
import { mailsIn } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { type Receiver, startReceiver } from '../../testing/webhook-receiver.js';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';

/**
 * Webhooks as an owner uses them, through the real app on a real database, to a real receiver on
 * 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE for this app, as the operator setting says). Every delivery is
 * verified with the Standard Webhooks library and parsed with the contract's payload schema.
 */
let t: TestApp;
let w: World;
/** PostgreSQL: every test file's app shares the webhook outbox, and their workers claim each other's deliveries. */
const SHARED_OUTBOX = Boolean(process.env.TEST_DATABASE_URL);
let rx: Receiver;
const owner = () => w.users.ORGANIZATION_OWNER.headers;

beforeAll(async () => {
  const base = (await import('../../config.js')).loadConfig({});
  t = await createTestApp({
    webhooks: {
      ...base.webhooks,
      allowPrivate: true,
      worker: true,
      retryBaseMs: 50,
      pollMs: 200,
      timeoutMs: 5000,
    },
  });
  w = await buildWorld(t);
  rx = await startReceiver();
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  headers = owner(),
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function createEndpoint(
  body: { url: string; eventTypes: string[]; description?: string },
  organizationId = w.orgA,
): Promise<WebhookWithSecret> {
  const res = await api('POST', `/v2/organization/${organizationId}/webhooks`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<WebhookWithSecret>();
}

async function deliveries(webhookId: string): Promise<WebhookDeliveryList> {
  const res = await api('GET', `/v2/webhook/${webhookId}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WebhookDeliveryList>();
}

/** Waits until the endpoint's log has no pending delivery (the worker finished). */
async function settled(webhookId: string, count: number): Promise<WebhookDeliveryList> {
  const end = Date.now() + 30_000;
  for (;;) {
    const log = await deliveries(webhookId);
    if (log.total >= count && log.deliveries.every((d) => d.status !== 'pending')) return log;
    if (Date.now() > end) throw new Error(`deliveries never settled: ${JSON.stringify(log)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const gatewayPost = (gateway: { id: string; credential: string }, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
    payload,
  });

describe('an owner wires alerts into another system', () => {
  it('an SOS opens, is confirmed and closes: three signed deliveries, each verified', async () => {
    const { webhook, secret } = await createEndpoint({
      url: rx.url('/alerts'),
      eventTypes: ['alert.opened', 'alert.confirmed', 'alert.closed'],
      description: 'nurse call',
    });
    expect(secret).toMatch(/^whsec_/);
    // The secret is shown once: never in the list.
    const list = await api('GET', `/v2/organization/${w.orgA}/webhooks`);
    expect(list.body).not.toContain(secret);
    expect(list.json<{ webhooks: WebhookView[] }>().webhooks.map((x) => x.id)).toContain(
      webhook.id,
    );

    const before = rx.received.length;
    const sos = await gatewayPost(w.w1.gateway, {
      events: [
        {
          serialNumber: w.w1.bracelet.serialNumber,
          type: 'SOS',
          at: new Date(Date.now() - 1000).toISOString(),
        },
      ],
    });
    expect(sos.statusCode, sos.body).toBe(200);
    await rx.waitFor(before + 1);
    const [alertRow] = await t.db.query<{ id: string }>(
      `SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL'`,
      [w.w1.uid],
    );
    const confirm = await api('POST', '/v2/alert/confirm', {
      alertId: alertRow!.id,
      reason: 'FALSE_ALARM',
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    await rx.waitFor(before + 3);

    const got = rx.received.slice(before).map((r) => {
      new Webhook(secret).verify(r.body, {
        'webhook-id': r.headers['webhook-id'] as string,
        'webhook-timestamp': r.headers['webhook-timestamp'] as string,
        'webhook-signature': r.headers['webhook-signature'] as string,
      });
      return webhookPayload.parse(JSON.parse(r.body));
    });
    expect(got.map((p) => p.type).sort()).toEqual(
      ['alert.closed', 'alert.confirmed', 'alert.opened'].sort(),
    );
    for (const p of got) {
      if (p.type !== 'alert.opened' && p.type !== 'alert.closed' && p.type !== 'alert.confirmed')
        throw new Error(`unexpected ${p.type}`);
      expect(p.version).toBe(1);
      expect(p.data.alert).toMatchObject({
        id: alertRow!.id,
        type: 'SOS_CALL',
        wearer: { uid: w.w1.uid },
        clientId: w.orgA,
      });
    }
    const confirmed = got.find((p) => p.type === 'alert.confirmed');
    expect(confirmed && 'alert' in confirmed.data && confirmed.data.alert.confirmReason).toBe(
      'FALSE_ALARM',
    );

    const log = await settled(webhook.id, 3);
    expect(log.deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(log.deliveries.every((d) => d.attempts === 1 && d.lastStatusCode === 200)).toBe(true);
    // A type the endpoint did not choose is not sent (the heat level of another gateway, say).
    expect(log.deliveries.map((d) => d.eventType).sort()).toEqual(
      ['alert.closed', 'alert.confirmed', 'alert.opened'].sort(),
    );
  });

  it('a receiver answering 500 then 200 gets the same webhook-id twice; the log shows both attempts', async () => {
    const { webhook, secret } = await createEndpoint({
      url: rx.url('/flaky'),
      eventTypes: ['alert.opened'],
    });
    const before = rx.received.length;
    rx.answers.push(500, 200);
    const test = await api('POST', `/v2/webhook/${webhook.id}/test`);
    expect(test.statusCode, test.body).toBe(202);
    const deliveryId = test.json<{ id: string }>().id;
    await rx.waitFor(before + 2);
    const twice = rx.received.slice(before, before + 2);
    expect(twice.map((r) => r.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
    expect(twice[0]!.body).toBe(twice[1]!.body);
    for (const r of twice) new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

    const log = await settled(webhook.id, 1);
    const d = log.deliveries.find((x) => x.id === deliveryId)!;
    expect(d).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200 });
    expect(d.attemptLog.map((a) => a.statusCode)).toEqual([200, 500]);
    expect(d.payload).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });

    // Send again: the same id and body once more.
    const again = await api('POST', `/v2/webhook/${webhook.id}/deliveries/${deliveryId}/resend`);
    expect(again.statusCode, again.body).toBe(202);
    await rx.waitFor(before + 3);
    expect(rx.received[before + 2]!.headers['webhook-id']).toBe(deliveryId);
    expect(rx.received[before + 2]!.body).toBe(twice[0]!.body);
  });

  it('a rotated secret signs the next delivery; the old one no longer verifies', async () => {
    const { webhook, secret: old } = await createEndpoint({
      url: rx.url('/rotated'),
      eventTypes: ['gateway.offline'],
    });
    const rotated = await api('POST', `/v2/webhook/${webhook.id}/rotateSecret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json<WebhookWithSecret>().secret;
    expect(fresh).not.toBe(old);
    const before = rx.received.length;
    await api('POST', `/v2/webhook/${webhook.id}/test`);
    await rx.waitFor(before + 1);
    const r = rx.received[before]!;
    const headers = r.headers as Record<string, string>;
    expect(() => new Webhook(fresh).verify(r.body, headers)).not.toThrow();
    expect(() => new Webhook(old).verify(r.body, headers)).toThrow();
  });

  // On PostgreSQL the outbox is shared with the other test files' apps, whose workers may claim
  // this delivery (and mail through their own outbox, or send with their own settings): what one
  // server's worker does is shown on PGlite, where this app is alone.
  it.skipIf(SHARED_OUTBOX)(
    'an endpoint failing for a whole day is disabled and its owners are mailed',
    async () => {
      const { webhook } = await createEndpoint({
        url: rx.url('/down'),
        eventTypes: ['alert.opened'],
      });
      await t.db.query(
        `UPDATE webhook_endpoints SET failing_since = now() - interval '25 hours' WHERE id = $1`,
        [webhook.id],
      );
      const before = rx.received.length;
      rx.answers.push(503);
      await api('POST', `/v2/webhook/${webhook.id}/test`);
      await rx.waitFor(before + 1);
      const end = Date.now() + 20_000;
      let view: WebhookView | undefined;
      while (Date.now() < end) {
        const list = await api('GET', `/v2/organization/${w.orgA}/webhooks`);
        view = list.json<{ webhooks: WebhookView[] }>().webhooks.find((x) => x.id === webhook.id);
        if (view && !view.enabled) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(view).toMatchObject({ enabled: false, disabledReason: 'failing' });
      // The owners are mailed right after the endpoint is disabled (the list can show it first).
      const mailed = async () =>
        (await mailsIn(t.ctx, w.users.ORGANIZATION_OWNER.email)).some((m) =>
          m.text.includes(rx.url('/down')),
        );
      const mailEnd = Date.now() + 10_000;
      while (!(await mailed()) && Date.now() < mailEnd)
        await new Promise((r) => setTimeout(r, 100));
      expect(await mailed()).toBe(true);
      // Enabled again by staff: the streak is forgotten.
      const on = await api('PATCH', `/v2/webhook/${webhook.id}`, { enabled: true });
      expect(on.json<WebhookView>()).toMatchObject({ enabled: true, failingSince: null });
    },
  );
});

describe('SSRF: private addresses', () => {
  it('refuses loopback, private, CGNAT, link-local and metadata hosts without the operator setting', async () => {
    const saved = t.ctx.config.webhooks;
    t.ctx.config.webhooks = { ...saved, allowPrivate: false };
    try {
      for (const url of [
        rx.url('/x'),
        'http://localhost:8080/x',
        'https://10.1.2.3/x',
        'https://172.16.0.1/x',
        'https://192.168.1.1/x',
        'https://100.64.0.1/x',
        'https://169.254.169.254/latest/meta-data',
        'https://[fd00:ec2::254]/x',
        'https://[::1]/x',
        'https://0.0.0.0/x',
        'https://[::ffff:127.0.0.1]/x',
      ]) {
        const res = await api('POST', `/v2/organization/${w.orgA}/webhooks`, {
          url,
          eventTypes: ['alert.opened'],
        });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        expect(res.json<{ message: string }>().message).toMatch(/^body\.url: /);
      }
    } finally {
      t.ctx.config.webhooks = saved;
    }
    // Metadata and link-local stay refused even with the setting.
    const meta = await api('POST', `/v2/organization/${w.orgA}/webhooks`, {
      url: 'https://169.254.169.254/x',
      eventTypes: ['alert.opened'],
    });
    expect(meta.statusCode).toBe(400);
  });

  // (PGlite only: see SHARED_OUTBOX.)
  it.skipIf(SHARED_OUTBOX)(
    'checks again at each delivery: an address refused now is not contacted',
    async () => {
      const { webhook } = await createEndpoint({
        url: rx.url('/later'),
        eventTypes: ['alert.opened'],
      });
      const saved = t.ctx.config.webhooks;
      t.ctx.config.webhooks = { ...saved, allowPrivate: false };
      const before = rx.received.length;
      try {
        await api('POST', `/v2/webhook/${webhook.id}/test`);
        const end = Date.now() + 20_000;
        let attempts = 0;
        while (Date.now() < end && attempts === 0) {
          attempts = (await deliveries(webhook.id)).deliveries[0]?.attempts ?? 0;
          await new Promise((r) => setTimeout(r, 100));
        }
        const d = (await deliveries(webhook.id)).deliveries[0]!;
        expect(d.status).toBe('pending');
        expect(d.attemptLog[0]).toMatchObject({ statusCode: null });
        expect(d.attemptLog[0]!.error).toMatch(/refused address/);
        expect(rx.received.slice(before).some((r) => r.headers['webhook-id'] === d.id)).toBe(false);
      } finally {
        t.ctx.config.webhooks = saved;
        await api('PATCH', `/v2/webhook/${webhook.id}`, { enabled: false });
      }
    },
  );
});

describe('a test event raced by the endpoint being deleted', () => {
  it('answers 202 or 404, never a 5xx, and leaves no delivery behind', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { webhook } = await createEndpoint({
        url: rx.url(),
        eventTypes: ['alert.opened'],
      });
      const [tested, deleted] = await Promise.all([
        api('POST', `/v2/webhook/${webhook.id}/test`),
        api('DELETE', `/v2/webhook/${webhook.id}`),
      ]);
      expect([202, 404], tested.body).toContain(tested.statusCode);
      expect(deleted.statusCode, deleted.body).toBeLessThan(300);
      const left = await t.db.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [
        webhook.id,
      ]);
      expect(left).toEqual([]);
    }
  });
});

describe('bad input is a 400 naming the field', () => {
  const cases: [string, object, string][] = [
    ['an http URL', { url: 'http://example.com/hook', eventTypes: ['alert.opened'] }, 'body.url'],
    [
      'a 10,000-character URL',
      { url: `https://example.com/${'a'.repeat(10_000)}`, eventTypes: ['alert.opened'] },
      'body.url',
    ],
    [
      'an unknown event type',
      { url: 'https://example.com/hook', eventTypes: ['alert.exploded'] },
      'body.eventTypes',
    ],
    ['no event type', { url: 'https://example.com/hook', eventTypes: [] }, 'body.eventTypes'],
    [
      'a URL with credentials',
      { url: 'https://user:pw@example.com/hook', eventTypes: ['alert.opened'] },
      'body.url',
    ],
    [
      'an unknown field',
      { url: 'https://example.com/hook', eventTypes: ['alert.opened'], secret: 'x' },
      'body',
    ],
  ];
  for (const [what, body, field] of cases) {
    it(what, async () => {
      const before = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_endpoints WHERE organization_id = $1',
        [w.orgA],
      );
      const res = await api('POST', `/v2/organization/${w.orgA}/webhooks`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(field);
      const after = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_endpoints WHERE organization_id = $1',
        [w.orgA],
      );
      expect(after[0]!.n).toBe(before[0]!.n);
    });
  }
});

/**
 * Who may do what with organisation A's endpoint and its log: owners (and platform staff reading),
 * nobody of another organisation, no other role. 404 where the actor cannot reach the organisation.
 */
const MAY: Record<ActorName, { read: number; manage: number }> = {
  ALL_OWNER: { read: 200, manage: 200 },
  ALL_GENERAL: { read: 200, manage: 403 },
  ORGANIZATION_OWNER: { read: 200, manage: 200 },
  ORGANIZATION_GENERAL: { read: 403, manage: 403 },
  ORGANIZATION_GROUP: { read: 403, manage: 403 },
  GROUP_MANAGER_OTHER_GROUP: { read: 403, manage: 403 },
  OTHER_ORG_OWNER: { read: 404, manage: 404 },
  PERSONAL_LINKED: { read: 403, manage: 403 },
  PERSONAL_UNLINKED: { read: 403, manage: 403 },
  PERSONAL_SELF: { read: 403, manage: 403 },
};

describe('every role against organisation A endpoint and its log', () => {
  for (const actor of ACTOR_NAMES) {
    it(actor, async () => {
      const { webhook } = await createEndpoint({
        url: rx.url(`/matrix-${actor}`),
        eventTypes: ['alert.opened'],
      });
      const as = w.users[actor].headers;
      const { read, manage } = MAY[actor];
      const status = async (
        method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
        url: string,
        body?: object,
      ) => (await api(method, url, body, as)).statusCode;
      // Reading: the list, the log.
      expect(await status('GET', `/v2/organization/${w.orgA}/webhooks`)).toBe(read);
      expect(await status('GET', `/v2/webhook/${webhook.id}/deliveries`)).toBe(read);
      // Changing: what the manage permission guards (the answer of an allowed call: 2xx).
      const ok = (s: number) => (manage === 200 ? s >= 200 && s < 300 : s === manage);
      expect(ok(await status('PATCH', `/v2/webhook/${webhook.id}`, { description: 'x' }))).toBe(
        true,
      );
      expect(ok(await status('POST', `/v2/webhook/${webhook.id}/test`))).toBe(true);
      expect(ok(await status('POST', `/v2/webhook/${webhook.id}/rotateSecret`))).toBe(true);
      expect(
        ok(
          await status('POST', `/v2/organization/${w.orgA}/webhooks`, {
            url: rx.url('/matrix-new'),
            eventTypes: ['alert.opened'],
          }),
        ),
      ).toBe(true);
      expect(ok(await status('DELETE', `/v2/webhook/${webhook.id}`))).toBe(true);
      const left = await t.db.query('SELECT 1 FROM webhook_endpoints WHERE id = $1', [webhook.id]);
      expect(left.length).toBe(manage === 200 ? 0 : 1);
    });
  }

  it("another organisation's owner sees only their own endpoints", async () => {
    const res = await api(
      'GET',
      `/v2/organization/${w.orgB}/webhooks`,
      undefined,
      w.users.OTHER_ORG_OWNER.headers,
    );
    expect(res.statusCode).toBe(200);
    expect(
      res.json<{ webhooks: WebhookView[] }>().webhooks.every((x) => x.clientId === w.orgB),
    ).toBe(true);
  });
});
