import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

const envelope = (dsn?: string) =>
  `${JSON.stringify({ event_id: 'a'.repeat(32), ...(dsn ? { dsn } : {}) })}\n{"type":"event"}\n{}`;

describe('monitoring tunnel', () => {
  let t: TestApp;
  let received: { url: string; body: string }[];
  let upstream: ReturnType<typeof createServer>;

  beforeAll(async () => {
    received = [];
    upstream = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ url: req.url ?? '', body });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const { port } = upstream.address() as AddressInfo;
    t = await createTestApp({
      monitoringUpstream: `http://127.0.0.1:${port}/api/{p}/envelope/?org={o}`,
      monitoringDsn: 'https://key@o123.ingest.example.com/456',
    });
  });
  afterAll(async () => {
    await t.close();
    upstream.close();
  });

  it('relays an envelope for the named organisation and project', async () => {
    const body = envelope('https://key@o123.ingest.example.com/456');
    const res = await t.app.inject({
      method: 'POST',
      url: '/monitoring?o=123&p=456',
      headers: { 'content-type': 'application/x-sentry-envelope' },
      payload: body,
    });
    expect(res.statusCode).toBe(202);
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toEqual({ url: '/api/456/envelope/?org=123', body });
  });

  it('refuses an envelope whose DSN names another project', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/monitoring?o=123&p=456',
      headers: { 'content-type': 'text/plain' },
      payload: envelope('https://key@o999.ingest.example.com/456'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('ENVELOPE_MISMATCH');
  });

  it('names a missing or malformed o / p and a header that is not JSON', async () => {
    const noP = await t.app.inject({
      method: 'POST',
      url: '/monitoring?o=1',
      headers: { 'content-type': 'text/plain' },
      payload: envelope(),
    });
    expect(noP.statusCode).toBe(400);
    expect(noP.json().message).toContain('querystring.p');
    const badO = await t.app.inject({
      method: 'POST',
      url: '/monitoring?o=abc&p=1',
      headers: { 'content-type': 'text/plain' },
      payload: envelope(),
    });
    expect(badO.json().message).toContain('querystring.o');
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/monitoring?o=123&p=456',
      headers: { 'content-type': 'text/plain' },
      payload: 'not json\n{}',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe('INVALID_ENVELOPE');
  });

  const post = (url: string, payload?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: payload === undefined ? {} : { 'content-type': 'application/x-sentry-envelope' },
      ...(payload === undefined ? {} : { payload }),
    });

  it('answers 400, not 500, without a body', async () => {
    for (const res of [
      await post('/monitoring?o=123&p=456'),
      await post('/monitoring?o=123&p=456', ''),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_ENVELOPE' });
      expect(res.json().message).toContain('body');
    }
  });

  it('relays only to the organisation and project configured on the server', async () => {
    const before = received.length;
    for (const url of ['/monitoring?o=999&p=456', '/monitoring?o=123&p=789']) {
      const res = await post(url, envelope());
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).toBe('ENVELOPE_MISMATCH');
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBe(before);
  });

  it('compares the DSN host exactly, not its prefix', async () => {
    for (const dsn of [
      'https://key@o123.ingest.example.com.evil.test/456',
      'https://key@o123.evil.test/456',
      'https://key@o123.ingest.example.com/457',
    ]) {
      const res = await post('/monitoring?o=123&p=456', envelope(dsn));
      expect(res.statusCode, dsn).toBe(400);
      expect(res.json().code, dsn).toBe('ENVELOPE_MISMATCH');
    }
  });
});
