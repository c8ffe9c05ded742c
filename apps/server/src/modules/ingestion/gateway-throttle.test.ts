import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { UNKNOWN_GATEWAY_BURST } from './gateway-throttle.js';

/** Issue 9: each request with an unknown gateway id cost a database look-up, unthrottled. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (authorization: string, payload: object, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization },
    payload,
    remoteAddress,
  });
const as = (w: WearerRecord) => `Gateway ${w.gateway.id}:${w.gateway.credential}`;
const sos = (w: WearerRecord) => ({
  events: [{ serialNumber: w.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() }],
});

describe('unknown gateways are throttled per address', () => {
  it('a flood of unknown ids gets 429 with Retry-After; a known gateway’s SOS still goes through', async () => {
    const org = await createOrganization(t);
    const known = await createWearer(t, { organizationId: org.id });
    const elsewhere = await createWearer(t, { organizationId: org.id });
    const flooder = '10.66.0.1';
    // The known gateway has been sending from the same address (a shared NAT).
    expect((await post(as(known), { readings: [] }, flooder)).statusCode).toBe(200);

    const flood = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        post(`Gateway gw-unknown-${i}:secret`, { readings: [] }, flooder),
      ),
    );
    const codes = flood.map((r) => r.statusCode);
    expect(codes.filter((c) => c !== 401 && c !== 429)).toEqual([]);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(UNKNOWN_GATEWAY_BURST);
    const refused = flood.find((r) => r.statusCode === 429);
    expect(refused?.json()).toMatchObject({ code: 'GATEWAY_THROTTLED' });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    const fromFlooder = await post(as(known), sos(known), flooder);
    expect(fromFlooder.statusCode).toBe(200);
    expect(fromFlooder.json()).toMatchObject({ accepted: 1 });
    // Another address is not affected at all, even for a gateway not seen before.
    expect((await post(as(elsewhere), sos(elsewhere), '10.66.0.2')).statusCode).toBe(200);
  });

  it('fifty gateways of one site starting at once from one address are all let in (they wait for a token, none is refused)', async () => {
    const org = await createOrganization(t);
    const site = await Promise.all(
      Array.from({ length: 5 * UNKNOWN_GATEWAY_BURST }, () =>
        createWearer(t, { organizationId: org.id }),
      ),
    );
    // A fresh server: no gateway is cached yet.
    t.ctx.ingestion.gateways.clear();
    const first = await Promise.all(site.map((w) => post(as(w), { readings: [] }, '10.66.2.1')));
    expect(first.map((r) => r.statusCode)).toEqual(site.map(() => 200));
    // And the site's own address still has its whole budget for a mistake.
    expect((await post('Gateway gw-typo:secret', { readings: [] }, '10.66.2.1')).statusCode).toBe(
      401,
    );
  });

  it('guessing a known gateway’s credential is throttled the same way', async () => {
    const org = await createOrganization(t);
    const w = await createWearer(t, { organizationId: org.id });
    const codes: number[] = [];
    for (let i = 0; i < UNKNOWN_GATEWAY_BURST + 5; i++) {
      codes.push(
        (await post(`Gateway ${w.gateway.id}:guess-${i}`, { readings: [] }, '10.66.1.1'))
          .statusCode,
      );
    }
    expect(codes.slice(-3)).toEqual([429, 429, 429]);
    expect((await post(as(w), { readings: [] }, '10.66.1.1')).statusCode).toBe(200);
  });
});
