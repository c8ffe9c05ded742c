// Per-gateway limits of issue 18: an April Brother AB BLE Gateway V4 reports up to 210 advertisements a
// second (its user guide, wiki.aprbrother.com/en/User_Guide_For_AB_BLE_Gateway_V4.html); the device frame
// below is the guide's example iBeacon (MAC and RSSI varied per device). The clock is fixed or stepped by the
// test, never measured.
import { encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let owner: UserRecord;
let orgId: string;
let clock = Date.now();

const IBEACON = '0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5';
const mac = (n: number) => (0xa00000000000 + n).toString(16).toUpperCase().padStart(12, '0');
const device = (n: number) => Buffer.from(`00${mac(n)}AA${IBEACON}`, 'hex');
/** One AB V4 message of `count` advertisements, devices numbered from `first`. */
const message = (count: number, first = 0) =>
  Buffer.from(
    encode({
      v: '1.5.5',
      mid: 1,
      time: 1,
      ip: '192.168.1.20',
      mac: 'C8FD19000001',
      devices: Array.from({ length: count }, (_, i) => device(first + i)),
    }),
  );

async function register(): Promise<{ id: string; url: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/gateway',
    headers: owner.headers,
    payload: {
      clientId: orgId,
      type: 'STATIONARY',
      kind: 'aprilbrother',
      serialNumber: `SN-ab-${Math.random()}`,
      name: 'AB V4',
    },
  });
  const c = res.json<{ connection: { gatewayId: string; pathSecret: string } }>().connection;
  return { id: c.gatewayId, url: `/gateway/v1/aprilbrother/${c.gatewayId}/${c.pathSecret}` };
}

const post = (url: string, payload: Buffer) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/msgpack' },
    payload,
  });

beforeAll(async () => {
  t = await createTestApp({
    gatewayAdvertisementsPerSecond: 250,
    gatewayAdvertisementsBurst: 5000,
    unknownDevicesPerGateway: 20,
  });
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  t.ctx.now = () => new Date(clock);
  const org = await createOrganization(t);
  orgId = org.id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
});
afterAll(() => t?.close());

describe('per-gateway rate limit', () => {
  it('lets an AB V4 at 210 advertisements a second through, thirty seconds in a row', async () => {
    const gw = await register();
    for (let s = 0; s < 30; s++) {
      clock += 1000;
      const res = await post(gw.url, message(210));
      expect(res.statusCode, `second ${s}`).toBe(200);
    }
  });

  it('refuses a flood beyond it with 429 and Retry-After, and takes the gateway again once it slows down', async () => {
    const gw = await register();
    clock += 1000;
    expect((await post(gw.url, message(2100))).statusCode).toBe(200);
    expect((await post(gw.url, message(2100))).statusCode).toBe(200);
    const refused = await post(gw.url, message(2100));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'GATEWAY_RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Ten seconds later 2,500 advertisements more are allowed.
    clock += 10_000;
    expect((await post(gw.url, message(2100))).statusCode).toBe(200);
  });

  it('cannot be raced: of ten concurrent requests of 1,000 advertisements, exactly five pass the 5,000 burst', async () => {
    const gw = await register();
    clock += 1000;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(gw.url, message(1000, i * 1000))),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
  });

  it('an SOS is taken even when the gateway is over its limit', async () => {
    // Serial numbers are unique across organisations (and a shared PostgreSQL keeps other files' rows): a tag of its own.
    const tag = mac(Math.floor(Math.random() * 0xffffff) + 0x1000000);
    const w = await createWearer(t, { organizationId: orgId, serialNumber: tag });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/gateway',
      headers: owner.headers,
      payload: {
        clientId: orgId,
        type: 'STATIONARY',
        kind: 'ingics',
        serialNumber: `SN-i-${Math.random()}`,
        name: 'iGS03',
      },
    });
    const c = res.json<{ connection: { gatewayId: string; pathSecret: string } }>().connection;
    const url = `/gateway/v1/ingics/${c.gatewayId}/${c.pathSecret}`;
    clock += 1000;
    const flood = Array.from(
      { length: 5000 },
      (_, i) => `$GPRP,${mac(i)},2F9203AFA66B,-60,${IBEACON}`,
    ).join('\n');
    const text = (payload: string) =>
      t.app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload });
    expect((await text(flood)).statusCode).toBe(200);
    expect((await text(flood)).statusCode).toBe(429);
    const sos = await text(
      `$GPRP,${tag},2F9203AFA66B,-21,02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF\r\n`,
    );
    expect(sos.statusCode).toBe(200);
    const open = await t.db.query<{ type: string }>(
      `SELECT type FROM alerts WHERE wearer_id = $1 AND status = 'OPEN'`,
      [w.uid],
    );
    expect(open.map((a) => a.type)).toContain('SOS_CALL');
  });
});

describe('a flood of unknown tags', () => {
  it('keeps at most UNKNOWN_DEVICES_PER_GATEWAY per gateway, the most recently heard, and stores no readings', async () => {
    const gw = await register();
    clock += 1000;
    expect((await post(gw.url, message(500, 0))).statusCode).toBe(200);
    clock += 1000;
    expect((await post(gw.url, message(500, 10_000))).statusCode).toBe(200);
    await t.ctx.vendorGateways.unknownDevices.flush(); // written every few seconds otherwise
    const [{ n }] = (await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM unknown_devices WHERE gateway_id = $1',
      [gw.id],
    )) as [{ n: number }];
    expect(n).toBe(20);
    const list = await t.app.inject({
      url: `/v2/gateway/${gw.id}/unknownDevices`,
      headers: owner.headers,
    });
    const body = list.json<{
      capacity: number;
      devices: { deviceId: string; lastHeardAt: string }[];
    }>();
    expect(body.capacity).toBe(20);
    expect(body.devices).toHaveLength(20);
    // Only devices of the second message (numbered from 10,000) are left.
    for (const d of body.devices)
      expect(parseInt(d.deviceId, 16) - 0xa00000000000).toBeGreaterThanOrEqual(10_000);
    const [{ r }] = (await t.db.query<{ r: number }>(
      'SELECT count(*)::int AS r FROM readings WHERE organization_id = $1',
      [orgId],
    )) as [{ r: number }];
    expect(r).toBeLessThanOrEqual(1); // the SOS story's bracelet only
  });
});
