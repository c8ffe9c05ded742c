import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createContext } from '../../context.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import type { FastifyInstance } from 'fastify';

// The built console at /: files, history fallback for routes, 404 for missing files and API paths.
const DEVICES_JS = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `row ${i}`))};`;

describe('web app serving', () => {
  let t: TestApp;
  let web: FastifyInstance;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'login-abc123.js'), 'export {};');
    // The build's precompressed copies (apps/web/vite.precompress.config.ts).
    writeFileSync(join(dist, 'assets', 'devices-abc123.js'), DEVICES_JS);
    writeFileSync(join(dist, 'assets', 'devices-abc123.js.br'), brotliCompressSync(DEVICES_JS));
    writeFileSync(join(dist, 'assets', 'devices-abc123.js.gz'), gzipSync(DEVICES_JS));
    mkdirSync(join(dist, 'phone'));
    writeFileSync(join(dist, 'phone', 'index.html'), '<!doctype html><div id="phone"></div>');
    writeFileSync(join(dist, 'phone', 'sw.js'), 'self.skipWaiting();');
    t = await createTestApp({ webDist: dist });
    web = await buildApp(createContext({ ...t.ctx.config, webDist: dist }, t.db), {
      logger: false,
    });
    await web.ready();
  });
  afterAll(async () => {
    await web.close();
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html for console routes, revalidated on every load', async () => {
    for (const url of ['/', '/devices', '/demo/devices', '/devices/org-1/u-1/alert?x=1']) {
      const res = await web.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('id="root"');
    }
    expect((await web.inject({ url: '/' })).headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets with a long cache, including ones built after start', async () => {
    const res = await web.inject({ url: '/assets/login-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    writeFileSync(join(dist, 'assets', 'devices-new999.js'), 'export {};');
    expect((await web.inject({ url: '/assets/devices-new999.js' })).statusCode).toBe(200);
  });

  it("sends the build's brotli or gzip copy to a browser that accepts it, the file itself to one that does not", async () => {
    const url = '/assets/devices-abc123.js';
    const br = await web.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['vary']).toContain('accept-encoding');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(DEVICES_JS);
    const gz = await web.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(DEVICES_JS);
    const plain = await web.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(DEVICES_JS);
  });

  it('answers 404, not the page, for a missing file, a path escape or an unknown API path', async () => {
    expect((await web.inject({ url: '/assets/gone-000.js' })).statusCode).toBe(404);
    expect((await web.inject({ url: '/assets/..%2F..%2Fetc%2Fpasswd.txt' })).statusCode).toBe(404);
    const api = await web.inject({ url: '/v2/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toContain('application/json');
  });

  it('serves the phone gateway at /phone/ (its own page, its service worker revalidated), /phone redirected', async () => {
    const redirect = await web.inject({ url: '/phone?lng=en' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/phone/?lng=en');
    for (const url of ['/phone/', '/phone/anything']) {
      const res = await web.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('id="phone"');
    }
    const sw = await web.inject({ url: '/phone/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    // The CSP lets the page register its own service worker and nothing from elsewhere.
    const csp = String(sw.headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("script-src 'self'");
  });
});
