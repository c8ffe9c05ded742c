import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Optional OpenTelemetry traces (issue 39 item 1): with OTEL_EXPORTER_OTLP_ENDPOINT set, a request and a gateway
 * batch each arrive at an OTLP/HTTP collector as a span (a local collector here: it lies outside the product), named
 * by the route's pattern, never its URL.
 */
interface OtlpBody {
  resourceSpans: {
    scopeSpans: {
      spans: { name: string; attributes: { key: string; value: Record<string, unknown> }[] }[];
    }[];
  }[];
}
let collector: Server;
const received: { path: string; body: OtlpBody }[] = [];
let t: TestApp;
let closed = false;
let w: WearerRecord;

beforeAll(async () => {
  collector = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as OtlpBody });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  const port = (collector.address() as AddressInfo).port;
  t = await createTestApp({ otelEndpoint: `http://127.0.0.1:${port}` });
  const org = await createOrganization(t.db);
  w = await createWearer(t.db, { organizationId: org.id });
});
afterAll(async () => {
  if (!closed) await t?.close();
  await new Promise((r) => collector.close(r));
});

describe('OpenTelemetry traces', () => {
  it('a request and a batch are spans at the collector, named by route; the spans are sent by close at the latest', async () => {
    const page = await t.app.inject({ url: `/v2/user/${w.uid}?secret=not-in-a-span` });
    expect(page.statusCode).toBe(401);
    const batch = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
      payload: {
        readings: [
          { serialNumber: w.bracelet.serialNumber, at: new Date().toISOString(), heartRate: 70 },
        ],
        environment: [],
        events: [],
      },
    });
    expect(batch.statusCode, batch.body).toBe(200);
    await t.close();
    closed = true;
    const spans = received.flatMap((r) =>
      r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)),
    );
    expect(received.every((r) => r.path === '/v1/traces')).toBe(true);
    const names = spans.map((s) => s.name);
    expect(names).toContain('GET /v2/user/:uid');
    expect(names).toContain('POST /gateway/v1/batches');
    const gatewayBatch = spans.find((s) => s.name === 'gateway batch');
    expect(gatewayBatch?.attributes).toContainEqual({
      key: 'batch.accepted',
      value: { intValue: 1 },
    });
    expect(JSON.stringify(spans)).not.toMatch(/not-in-a-span|credential/);
  });
});
