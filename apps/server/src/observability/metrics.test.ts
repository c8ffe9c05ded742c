import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import {
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from '../testing/factories.js';
import { connectSse, until } from '../testing/sse-client.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Issue 39 item 1: GET /metrics for an operator's Prometheus, and the "ingestion stopped" signal. Off by default;
 * a bearer of METRICS_TOKEN only; the counters move with a real batch; the shipped alert rules and dashboard name
 * only metrics that exist.
 */
const TOKEN = 'metrics-token-metrics-token-0123';
let t: TestApp;
let off: TestApp;
let w: WearerRecord;
let owner: UserRecord;

beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN, ingestionStoppedMinutes: 10 });
  off = await createTestApp();
  const org = await createOrganization(t.db);
  w = await createWearer(t.db, { organizationId: org.id });
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});

const scrape = (app: TestApp, authorization?: string) =>
  app.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });

async function batch(payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
    payload: { readings: [], environment: [], events: [], ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The value of an unlabelled sample (`name value`), or undefined. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('GET /metrics', () => {
  it('is 404 when METRICS_TOKEN is not set, 401 without the token or with another one', async () => {
    expect((await scrape(off, `Bearer ${TOKEN}`)).statusCode).toBe(404);
    expect((await scrape(t)).statusCode).toBe(401);
    expect((await scrape(t, `Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(t, `Basic ${TOKEN}`)).statusCode).toBe(401);
    const res = await scrape(t, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
  });

  it('counts a batch, its refused items by reason and an SOS as an open emergency', async () => {
    const now = Date.now();
    await batch({
      readings: [
        {
          serialNumber: w.bracelet.serialNumber,
          at: new Date(now - 60_000).toISOString(),
          heartRate: 72,
        },
        { serialNumber: w.bracelet.serialNumber, at: new Date(now).toISOString(), heartRate: 73 },
        { serialNumber: 'NO-SUCH-BRACELET', at: new Date(now).toISOString(), heartRate: 70 },
      ],
    });
    await batch({
      events: [
        { serialNumber: w.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
      ],
    });
    const text = (await scrape(t, `Bearer ${TOKEN}`)).body;
    expect(text).toMatch(
      /^wearable_ingested_items_total\{gateway_type="[^"]+",outcome="accepted"\} [3-9]/m,
    );
    expect(text).toMatch(
      /^wearable_ingested_items_total\{gateway_type="[^"]+",outcome="rejected"\} 1$/m,
    );
    expect(text).toMatch(/^wearable_refused_items_total\{reason="[^"]+"\} 1$/m);
    expect(text).toMatch(
      /^wearable_batch_duration_seconds_count\{gateway_type="[^"]+",urgent="true"\} 1$/m,
    );
    expect(text).toMatch(
      /^wearable_batch_duration_seconds_count\{gateway_type="[^"]+",urgent="false"\} 1$/m,
    );
    expect(
      Number(/^wearable_open_alerts\{level="EMERGENCY"\} (\d+)$/m.exec(text)?.[1]),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^wearable_bus_connected 1$/m);
    expect(text).toMatch(/^wearable_nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^wearable_webhook_outbox_depth \d+$/m);
    expect(text).toMatch(/^wearable_database_connections\{pool="normal",state="idle"\} \d+$/m);
    expect(text).toMatch(/^wearable_database_waiting\{pool="normal"\} \d+$/m);
    expect(text).toMatch(/^# TYPE wearable_notifications_last_hour gauge$/m);
    expect(sample(text, 'wearable_summary_snapshot_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'wearable_last_reading_age_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('an organisation whose gateways went quiet is "ingestion stopped", in /metrics and in /readyz', async () => {
    const org = w.organizationId;
    const stopped = async () => {
      const text = (await scrape(t, `Bearer ${TOKEN}`)).body;
      const inMetrics = new RegExp(
        `^wearable_ingestion_stopped\\{organization="${org}"\\} 1$`,
        'm',
      ).test(text);
      const ready = (await t.app.inject({ url: '/readyz' })).json<{
        status: string;
        ingestion: { stopped: { organizationId: string }[] };
      }>();
      expect(ready.status).toBe('ready');
      return { inMetrics, inReady: ready.ingestion.stopped.some((s) => s.organizationId === org) };
    };
    expect(await stopped()).toEqual({ inMetrics: false, inReady: false });
    // Its newest reading 11 minutes ago (the threshold is 10): stopped; a reading now: running again.
    await t.db.query(
      "UPDATE wearer_latest SET last_seen_at = now() - interval '11 minutes' WHERE organization_id = $1",
      [org],
    );
    expect(await stopped()).toEqual({ inMetrics: true, inReady: true });
    await batch({
      readings: [
        { serialNumber: w.bracelet.serialNumber, at: new Date().toISOString(), heartRate: 71 },
      ],
    });
    expect(await stopped()).toEqual({ inMetrics: false, inReady: false });
  });

  it("an SOS's live frame to a console is timed from its raise (SOS to live push)", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const count = async () =>
      Number(
        /^wearable_alert_live_push_seconds_count\{level="EMERGENCY"\} (\d+)$/m.exec(
          (await scrape(t, `Bearer ${TOKEN}`)).body,
        )?.[1] ?? 0,
      );
    const before = await count();
    const stream = connectSse(`${base}/v3/live`, owner.headers);
    try {
      await until(() => (stream.status() === 200 ? true : undefined));
      // A second wearer of the organisation: the first one's SOS is already open.
      const other = await createWearer(t.db, {
        organizationId: w.organizationId,
        gateway: w.gateway,
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/gateway/v1/batches',
        headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
        payload: {
          readings: [],
          environment: [],
          events: [
            {
              serialNumber: other.bracelet.serialNumber,
              type: 'SOS',
              at: new Date().toISOString(),
            },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      await until(() =>
        stream.events.find((e) => e.event === 'alert' && e.data.alert?.wearer.uid === other.uid),
      );
      expect(await count()).toBe(before + 1);
    } finally {
      stream.close();
    }
  });

  it('the shipped alert rules and dashboard use only metrics that exist', async () => {
    const text = (await scrape(t, `Bearer ${TOKEN}`)).body;
    const names = new Set(
      text
        .split('\n')
        .filter((l) => l.startsWith('# TYPE '))
        .flatMap((l) => {
          const [, , name, type] = l.split(' ');
          return type === 'histogram'
            ? [`${name}_bucket`, `${name}_sum`, `${name}_count`]
            : [name!];
        }),
    );
    for (const file of ['prometheus-rules.yml', 'grafana-dashboard.json']) {
      const doc = readFileSync(
        new URL(`../../../../docs/operations/${file}`, import.meta.url),
        'utf8',
      );
      const used = [...new Set(doc.match(/\bwearable_[a-z0-9_]+/g) ?? [])];
      expect(used.length, file).toBeGreaterThan(3);
      expect(
        used.filter((n) => !names.has(n)),
        file,
      ).toEqual([]);
    }
  });
});
