import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as domain from '@wearable/domain';
import type { Endpoint } from '@wearable/domain';
import {
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
} from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/** Issue 9: the API served personal data to a user who had not agreed to the current terms. */
let t: TestApp;
let orgId: string;
beforeAll(async () => {
  t = await createTestApp();
  orgId = (await createOrganization(t)).id;
  await createWearer(t, { organizationId: orgId });
  // The demo scope acts as its owner, who counts as having agreed.
  const demo = await createOrganization(t, { isDemo: true });
  await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: demo.id, agreedTerms: false });
});
afterAll(() => t.close());

const newcomer = () =>
  createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: orgId, agreedTerms: false });
const call = (user: UserRecord, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

describe('data only after the current terms are agreed', () => {
  it.each([
    ['GET', '/v3/device/summary'],
    ['GET', '/v2/alert/list'],
    ['GET', '/v2/user/alertSettings/list'],
  ] as const)('refuses %s %s with 403 TERMS_NOT_AGREED', async (method, url) => {
    const res = await call(await newcomer(), method, url);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'TERMS_NOT_AGREED' });
  });

  it('allows what the terms modal needs: own record, the agreement, the live ticket, sign-out; then data', async () => {
    const user = await newcomer();
    const info = await call(user, 'GET', '/v2/user');
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ agreedTermsOfUse: false });
    expect((await call(user, 'POST', '/v3/live/ticket')).statusCode).toBe(200);
    expect((await call(user, 'POST', '/v2/user/termsOfUse', { agreement: true })).statusCode).toBe(
      200,
    );
    expect((await call(user, 'GET', '/v3/device/summary')).statusCode).toBe(200);
    expect((await call(user, 'POST', '/v2/auth/signOut', {})).statusCode).toBeLessThan(300);
  });

  it('the contracts name the endpoints a newcomer may call (allowBeforeTerms), and serve() keeps to them', async () => {
    const isEndpoint = (value: unknown): value is Endpoint =>
      typeof value === 'object' && value !== null && 'responses' in value && 'id' in value;
    const exported: Record<string, unknown> = domain;
    const allowed = Object.values(exported)
      .filter(isEndpoint)
      .filter((e) => e.allowBeforeTerms === true)
      .map((e) => e.id)
      .sort();
    expect(allowed).toEqual([
      'GET /v2/user',
      'POST /v2/auth/signOut',
      'POST /v2/user/sessions/signOutEverywhere',
      'POST /v2/user/termsOfUse',
      'POST /v3/live/ticket',
    ]);
    // Served from its contract, the flag reaches the route's config, which the gate reads (the gate
    // runs before validation: a 400 for a missing body is past it).
    for (const id of allowed) {
      const [method, url] = id.split(' ') as ['GET' | 'POST', string];
      const res = await call(await newcomer(), method, url);
      expect(res.statusCode, id).toBeLessThan(401);
    }
  });

  it('the live stream is refused before the terms are agreed', async () => {
    const user = await newcomer();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/v3/live`, { headers: user.headers });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('TERMS_NOT_AGREED');
  });

  it('sign-out and refresh stay allowed; the demo scope counts as agreed', async () => {
    const user = await newcomer();
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/refresh',
      payload: { refreshToken: user.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/demo-api/v3/device/summary' })).statusCode).toBe(200);
  });
});
