import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SCHEDULE,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryList,
  type WebhookEventType,
  webhookPayload,
  type WebhookPayload,
  type WebhookWithSecret,
} from '@wearable/domain';
import { createGateway, createWearer, type GatewayRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { type Receiver, startReceiver } from '../../testing/webhook-receiver.js';
import { buildWorld, type World } from '../../testing/world.js';

/**
 * Each event type as a customer's system sees it, through the real app on a real database: an
 * endpoint subscribed to that type alone gets a signed delivery that verifies with the Standard
 * Webhooks library and parses with the contract; an endpoint subscribed to every OTHER type gets
 * nothing of it. (alert.opened / confirmed / closed have their own story in webhooks.test.ts; they
 * come here as the other endpoint's deliveries.) Last, the payloads seen match docs/webhooks.md.
 */
let t: TestApp;
let w: World;
const owner = () => w.users.ORGANIZATION_OWNER.headers;
/** Every verified payload of this file, by type (for the documentation's check). */
const seen = new Map<string, WebhookPayload>();

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
    // An unconfirmed EMERGENCY alert escalates one second after its notices (the app's own sweeper).
    escalationAfterSeconds: 1,
  });
  w = await buildWorld(t);
});
afterAll(() => t?.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: owner(), ...(payload ? { payload } : {}) });

interface Subscribed {
  id: string;
  secret: string;
  rx: Receiver;
}

/** An endpoint of organisation A on its own receiver. */
async function subscribe(eventTypes: readonly WebhookEventType[]): Promise<Subscribed> {
  const rx = await startReceiver();
  const res = await api('POST', `/v2/organization/${w.orgA}/webhooks`, {
    url: rx.url(),
    eventTypes,
  });
  expect(res.statusCode, res.body).toBe(201);
  const { webhook, secret } = res.json<WebhookWithSecret>();
  return { id: webhook.id, secret, rx };
}

/**
 * The endpoint that wants `type` alone, and the one that wants every other type. `story` makes the
 * event happen; both endpoints are deleted afterwards (their receivers closed).
 */
async function withEndpoints(
  type: WebhookEventType,
  story: (yes: Subscribed, no: Subscribed) => Promise<void>,
): Promise<void> {
  const yes = await subscribe([type]);
  const no = await subscribe(WEBHOOK_EVENT_TYPES.filter((x) => x !== type));
  try {
    await story(yes, no);
    // The outbox writes every endpoint's delivery in the event's own transaction: once the
    // subscribed endpoint had it, the other one's log is final for this event.
    expect((await logOf(no.id)).deliveries.map((d) => d.eventType)).not.toContain(type);
    expect(payloads(no).map((p) => p.type)).not.toContain(type);
  } finally {
    for (const e of [yes, no]) {
      await api('DELETE', `/v2/webhook/${e.id}`);
      await e.rx.close();
    }
  }
}

async function logOf(webhookId: string): Promise<WebhookDeliveryList> {
  const res = await api('GET', `/v2/webhook/${webhookId}/deliveries?pageSize=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WebhookDeliveryList>();
}

/** What the endpoint's receiver got, each delivery verified with its secret and parsed. */
function payloads(e: Subscribed): WebhookPayload[] {
  return e.rx.received.map((r) => {
    new Webhook(e.secret).verify(r.body, {
      'webhook-id': r.headers['webhook-id'] as string,
      'webhook-timestamp': r.headers['webhook-timestamp'] as string,
      'webhook-signature': r.headers['webhook-signature'] as string,
    });
    const p = webhookPayload.parse(JSON.parse(r.body));
    seen.set(p.type, p);
    return p;
  });
}

/** Waits until the endpoint's receiver has a payload that `match` accepts; returns it. */
async function arrival<T extends WebhookPayload>(
  e: Subscribed,
  match: (p: WebhookPayload) => p is T,
  ms = 45_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = payloads(e).find(match);
    if (found) return found;
    if (Date.now() > end) throw new Error(`no matching delivery: ${JSON.stringify(payloads(e))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const is =
  <K extends WebhookPayload['type']>(type: K, also: (p: WebhookPayload & { type: K }) => boolean) =>
  (p: WebhookPayload): p is WebhookPayload & { type: K } =>
    p.type === type && also(p as WebhookPayload & { type: K });

const gatewayPost = (gateway: GatewayRecord, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
    payload,
  });

async function until<T>(probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('each event type reaches the endpoint that chose it, and no other', () => {
  it('alert.escalated: an SOS nobody confirms moves to the next step of the group', async () => {
    // Group 2's SOS contacts: a call first, another call at the next step.
    const notices = await api('PUT', `/v2/group/${w.g2}/alertNoticeSettings`, {
      recipients: [1, 2].map((order) => ({
        phoneNumber: `+8190777700${order}0`,
        channel: 'PHONE_CALL',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order,
      })),
    });
    expect(notices.statusCode, notices.body).toBe(200);
    const wearer = await createWearer(t, { organizationId: w.orgA, groupId: w.g2 });

    await withEndpoints('alert.escalated', async (yes, no) => {
      const sos = await gatewayPost(wearer.gateway, {
        events: [
          { serialNumber: wearer.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
        ],
      });
      expect(sos.statusCode, sos.body).toBe(200);
      const opened = await arrival(
        no,
        is('alert.opened', (p) => p.data.alert.wearer?.uid === wearer.uid),
      );
      const alertId = opened.data.alert.id;

      const escalated = await arrival(
        yes,
        is('alert.escalated', (p) => p.data.alert.id === alertId),
      );
      expect(escalated.version).toBe(1);
      expect(escalated.data.step).toBe(2);
      expect(escalated.data.alert).toMatchObject({
        id: alertId,
        type: 'SOS_CALL',
        level: 'EMERGENCY',
        status: 'OPEN',
        confirmedAt: null,
        clientId: w.orgA,
        groupId: w.g2,
        wearer: { uid: wearer.uid },
      });
      // The second step's contact was called in the same escalation.
      const calls = await t.db.query<{ step: number; recipient: string }>(
        'SELECT step, recipient FROM notifications WHERE alert_id = $1 ORDER BY step',
        [alertId],
      );
      expect(calls.map((c) => [c.step, c.recipient])).toEqual([
        [1, '+819077770010'],
        [2, '+819077770020'],
      ]);

      // Confirmed: the other endpoint hears it (and it closes); the escalation stops.
      const confirm = await api('POST', '/v2/alert/confirm', { alertId, reason: 'FALSE_ALARM' });
      expect(confirm.statusCode, confirm.body).toBe(200);
      await arrival(
        no,
        is('alert.closed', (p) => p.data.alert.id === alertId),
      );
      await arrival(
        no,
        is('alert.confirmed', (p) => p.data.alert.id === alertId),
      );
      expect(payloads(yes).every((p) => p.type === 'alert.escalated')).toBe(true);
    });
  }, 90_000);

  it('site.heatLevelChanged: a site whose WBGT stays at 26 for a quarter of an hour is at CAUTION', async () => {
    const gateway = await createGateway(t, {
      organizationId: w.orgA,
      groupId: w.g1,
      name: '西ゲート',
    });
    await withEndpoints('site.heatLevelChanged', async (yes) => {
      const start = Date.now() - 15 * 60_000;
      const res = await gatewayPost(gateway, {
        readings: [],
        events: [],
        environment: Array.from({ length: 15 }, (_, m) => ({
          at: new Date(start + m * 60_000).toISOString(),
          wbgt: 26,
          temperature: 30,
          humidity: 60,
        })),
      });
      expect(res.statusCode, res.body).toBe(200);
      const changed = await arrival(
        yes,
        is('site.heatLevelChanged', (p) => p.data.site.gatewayId === gateway.id),
      );
      expect(changed.data.change).toMatchObject({
        gatewayId: gateway.id,
        gatewayName: '西ゲート',
        groupId: w.g1,
        from: 'NORMAL',
        to: 'CAUTION',
        wbgt: 26,
      });
      expect(changed.data.site).toMatchObject({
        gatewayId: gateway.id,
        groupId: w.g1,
        level: 'CAUTION',
      });
      expect(changed.timestamp).toBe(changed.data.change.at);
      // The console shows the same level.
      const sites = await api('GET', `/v2/client/${w.orgA}/siteHeat`);
      expect(
        sites
          .json<{ sites: { gatewayId: string; level: string }[] }>()
          .sites.find((s) => s.gatewayId === gateway.id)?.level,
      ).toBe('CAUTION');
    });
  });

  it('gateway.online and gateway.offline: a gateway comes online, then is silent for five minutes', async () => {
    const gateway = await createGateway(t, {
      organizationId: w.orgA,
      groupId: w.g1,
      name: '北ゲート',
    });
    const offlineOnly = await subscribe(['gateway.offline']);
    try {
      await withEndpoints('gateway.online', async (yes, no) => {
        // The sweep first records the gateway as it is (never seen: offline), without an event.
        await until(async () =>
          (
            await t.db.query('SELECT 1 FROM webhook_gateway_states WHERE gateway_id = $1', [
              gateway.id,
            ])
          ).length
            ? true
            : undefined,
        );
        const batch = await gatewayPost(gateway, { readings: [] });
        expect(batch.statusCode, batch.body).toBe(200);
        const online = await arrival(
          yes,
          is('gateway.online', (p) => p.data.gateway.id === gateway.id),
        );
        expect(online.data.gateway).toMatchObject({
          id: gateway.id,
          clientId: w.orgA,
          name: '北ゲート',
          serialNumber: gateway.serialNumber,
          groupId: w.g1,
          status: 'online',
          offlineSince: null,
        });
        expect(online.data.gateway.lastSeenAt).not.toBeNull();

        // Five minutes pass without a batch (its last one moved back: the status is derived from it).
        await t.db.query(
          `UPDATE gateways SET last_seen_at = now() - interval '6 minutes' WHERE id = $1`,
          [gateway.id],
        );
        for (const e of [offlineOnly, no]) {
          const offline = await arrival(
            e,
            is('gateway.offline', (p) => p.data.gateway.id === gateway.id),
          );
          expect(offline.data.gateway).toMatchObject({ id: gateway.id, status: 'offline' });
          expect(offline.data.gateway.offlineSince).not.toBeNull();
        }
        // Each endpoint got only its own type of this gateway.
        const mine = (e: Subscribed) =>
          payloads(e).flatMap((p) =>
            'gateway' in p.data && p.data.gateway.id === gateway.id ? [p.type] : [],
          );
        expect(new Set(mine(yes))).toEqual(new Set(['gateway.online']));
        expect(new Set(mine(offlineOnly))).toEqual(new Set(['gateway.offline']));
      });
    } finally {
      await api('DELETE', `/v2/webhook/${offlineOnly.id}`);
      await offlineOnly.rx.close();
    }
  }, 90_000);

  it('bracelet.paired: a bracelet linked to a gateway is first reported by it', async () => {
    const wearer = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
    await withEndpoints('bracelet.paired', async (yes) => {
      const at = new Date(Date.now() - 1000).toISOString();
      const res = await gatewayPost(wearer.gateway, {
        readings: [{ serialNumber: wearer.bracelet.serialNumber, at, heartRate: 72, worn: true }],
      });
      expect(res.statusCode, res.body).toBe(200);
      const paired = await arrival(
        yes,
        is('bracelet.paired', (p) => p.data.bracelet.wearableId === wearer.bracelet.id),
      );
      expect(paired.data.bracelet).toEqual({
        wearableId: wearer.bracelet.id,
        clientId: w.orgA,
        serialNumber: wearer.bracelet.serialNumber,
        deviceName: wearer.bracelet.deviceName,
        model: null,
        firmware: null,
        uid: wearer.uid,
        gatewayId: wearer.gateway.id,
      });
      expect(paired.data.pairedAt).toBe(paired.timestamp);
      const [row] = await t.db.query<{ paired_at: Date }>(
        'SELECT paired_at FROM bracelets WHERE id = $1',
        [wearer.bracelet.id],
      );
      expect(new Date(paired.data.pairedAt).getTime()).toBe(row!.paired_at.getTime());
      // The next batch pairs nothing again.
      const again = await gatewayPost(wearer.gateway, {
        readings: [
          {
            serialNumber: wearer.bracelet.serialNumber,
            at: new Date().toISOString(),
            heartRate: 73,
            worn: true,
          },
        ],
      });
      expect(again.statusCode, again.body).toBe(200);
      const log = await logOf(yes.id);
      expect(log.deliveries.map((d) => d.eventType)).toEqual(['bracelet.paired']);
    });
  });
});

describe('docs/webhooks.md', () => {
  /** The events table: each `type` and the top-level keys its `data` column names. */
  function documented(): Map<string, string[]> {
    const doc = readFileSync(new URL('../../../../../docs/webhooks.md', import.meta.url), 'utf8');
    const table = new Map<string, string[]>();
    for (const line of doc.split('\n')) {
      const m = /^\|\s*`([a-zA-Z.]+)`\s*\|\s*`\{\s*([^}]*?)\s*\}`/.exec(line);
      if (m) table.set(m[1]!, m[2]!.split(/\s*,\s*/));
    }
    return table;
  }

  it('names every event type, and each payload seen has the documented type and data', async () => {
    // The test event, to compare it too.
    const probe = await subscribe(['alert.opened']);
    try {
      const sent = await api('POST', `/v2/webhook/${probe.id}/test`);
      expect(sent.statusCode, sent.body).toBe(202);
      await arrival(
        probe,
        is(WEBHOOK_TEST_EVENT, () => true),
      );
    } finally {
      await api('DELETE', `/v2/webhook/${probe.id}`);
      await probe.rx.close();
    }

    const table = documented();
    expect([...table.keys()].sort()).toEqual([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT].sort());
    // The stories above delivered one of each (run the whole file).
    expect([...seen.keys()].sort()).toEqual([...table.keys()].sort());
    for (const [type, keys] of table) {
      const p = seen.get(type)!;
      expect(Object.keys(p.data).sort(), type).toEqual([...keys].sort());
      expect(p.version).toBe(1);
      expect(new Date(p.timestamp).toISOString()).toBe(p.timestamp);
    }
    // "with confirmedBy, confirmReason" / "with closedAt, closeReason": set in those payloads.
    const alertOf = (type: string) => (seen.get(type)!.data as { alert: object }).alert;
    expect(alertOf('alert.confirmed')).toMatchObject({
      confirmedBy: { uid: w.users.ORGANIZATION_OWNER.uid },
      confirmReason: 'FALSE_ALARM',
    });
    expect(alertOf('alert.closed')).toMatchObject({ closedAt: expect.any(String) });
    expect((alertOf('alert.closed') as { closeReason: unknown }).closeReason).not.toBeNull();
  });
});
