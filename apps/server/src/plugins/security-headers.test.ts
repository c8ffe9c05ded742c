import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser, type UserRecord } from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/** Issue 9: no CSP, frame-ancestors, nosniff or Referrer-Policy; personal data cacheable. */
let t: TestApp;
let owner: UserRecord;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, {
    role: 'ORGANIZATION_OWNER',
    organizationId: (await createOrganization(t)).id,
  });
});
afterAll(() => t.close());

function expectBrowserHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).toContain("object-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('browser security headers', () => {
  it.each([
    ['an API answer', '/v2/user', true],
    ['an API refusal', '/v2/user', false],
    ['a demo answer', '/demo-api/v2/user', false],
    ['an unknown path', '/nowhere', false],
    ['the health check', '/healthz', false],
  ])('are on %s', async (_what, url, signedIn) => {
    const res = await t.app.inject({ url, headers: signedIn ? owner.headers : {} });
    expectBrowserHeaders(res.headers);
  });

  it('API answers carrying personal data are never stored by a cache', async () => {
    for (const url of ['/v2/user', '/v3/device/summary']) {
      const res = await t.app.inject({ url, headers: owner.headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const refused = await t.app.inject({ url: '/v2/user' });
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('the live stream has them too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const abort = new AbortController();
    const res = await fetch(`${base}/v3/live`, { headers: owner.headers, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toContain('no-store');
    abort.abort();
  });
});

describe("/map's tile server in the CSP (MAP_TILE_URL)", () => {
  const imgSrc = (headers: Record<string, unknown>) =>
    /img-src ([^;]*)/.exec(String(headers['content-security-policy']))?.[1];

  it('allows images from the default OpenStreetMap tile origin and nothing more', async () => {
    const res = await t.app.inject({ url: '/nowhere' });
    expect(imgSrc(res.headers)).toBe("'self' data: blob: https://tile.openstreetmap.org");
  });

  it('follows the configured template, and allows no other origin without one', async () => {
    const custom = await createTestApp({
      mapTiles: { url: 'https://{s}.tiles.example.jp/{z}/{x}/{y}.png', attribution: '© Example' },
    });
    const none = await createTestApp({ mapTiles: null });
    try {
      expect(imgSrc((await custom.app.inject({ url: '/nowhere' })).headers)).toBe(
        "'self' data: blob: https://*.tiles.example.jp",
      );
      expect(imgSrc((await none.app.inject({ url: '/nowhere' })).headers)).toBe(
        "'self' data: blob:",
      );
    } finally {
      await custom.close();
      await none.close();
    }
  });
});
