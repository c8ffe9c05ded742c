import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

// The sign-in limit per account and address must count the real client, not an address the client writes itself.
const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function failuresFromOneSocket(trustProxy: boolean | number) {
  const t = await createTestApp({ signInMaxFailures: 3, signInWindow: 600, trustProxy });
  apps.push(t);
  const socket = `10.77.${Number(trustProxy)}.${Math.floor(Math.random() * 250) + 1}`;
  const statuses: number[] = [];
  const email = `nobody-${trustProxy}-${Date.now()}@example.com`;
  for (let i = 0; i < 5; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/signIn',
      // One account from "different" addresses: only the limit per account and address applies.
      payload: { email, password: 'wrong-password' },
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      remoteAddress: socket,
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  it('by default ignores X-Forwarded-For: a client cannot dodge the address limit', async () => {
    expect(await failuresFromOneSocket(false)).toEqual([401, 401, 401, 429, 429]);
  });

  it('believes X-Forwarded-For only when configured to (behind a proxy)', async () => {
    expect(await failuresFromOneSocket(true)).toEqual([401, 401, 401, 401, 401]);
    // One trusted hop: the proxy in front; the address it forwards is the client.
    expect(await failuresFromOneSocket(1)).toEqual([401, 401, 401, 401, 401]);
  });

  it('parses true, false, hop counts and address lists, and names a bad value', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});
