// What vendor ingestion remembers between requests (issue 18, gateway-cost): which organisation's bracelet a
// heard device is, and the unknown devices written every few seconds. Told through the real app: a registration,
// a link or an unlink takes effect at the next advertisement, and another organisation's gateway never resolves
// this organisation's bracelet, even while the look-up is remembered. The device frame is the April Brother V4
// user guide's example iBeacon (MAC varied per test), as in vendor-limits.test.ts.
import { encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUS_EVENTS } from '../../bus/events.js';
import {
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let clock = Date.now();

const IBEACON = '0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5';
/** A MAC of its own per test: serial numbers are unique across organisations (and a kept PostgreSQL keeps rows). */
const freshMac = () =>
  (0xd00000000000 + Math.floor(Math.random() * 0xffffffffff))
    .toString(16)
    .toUpperCase()
    .padStart(12, '0');
const message = (macs: string[]) =>
  Buffer.from(
    encode({
      v: '1.5.5',
      mid: 1,
      time: 1,
      ip: '192.168.1.20',
      mac: 'C8FD19000001',
      devices: macs.map((mac) => Buffer.from(`00${mac}B4${IBEACON}`, 'hex')),
    }),
  );

interface Org {
  id: string;
  owner: UserRecord;
  gateway: { id: string; url: string };
}

async function organisationWithGateway(): Promise<Org> {
  const org = await createOrganization(t);
  const owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/gateway',
    headers: owner.headers,
    payload: {
      clientId: org.id,
      type: 'STATIONARY',
      kind: 'aprilbrother',
      serialNumber: `SN-ab-${Math.random()}`,
      name: 'AB V4',
    },
  });
  expect(res.statusCode).toBe(201);
  const c = res.json<{ connection: { gatewayId: string; pathSecret: string } }>().connection;
  return {
    id: org.id,
    owner,
    gateway: { id: c.gatewayId, url: `/gateway/v1/aprilbrother/${c.gatewayId}/${c.pathSecret}` },
  };
}

/** One second later, the gateway reports these tags. */
async function hear(org: Org, macs: string[]) {
  clock += 1000;
  const res = await t.app.inject({
    method: 'POST',
    url: org.gateway.url,
    headers: { 'content-type': 'application/msgpack' },
    payload: message(macs),
  });
  expect(res.statusCode).toBe(200);
  return res.json<{
    accepted: number;
    rejected: { index: number; reason: string }[];
    unknownDevices: number;
  }>();
}

async function listed(org: Org): Promise<string[]> {
  const res = await t.app.inject({
    url: `/v2/gateway/${org.gateway.id}/unknownDevices`,
    headers: org.owner.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ devices: { deviceId: string }[] }>().devices.map((d) => d.deviceId);
}

const readingsOf = async (serialNumber: string, organizationId: string) =>
  (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM readings r JOIN bracelets b ON b.id = r.bracelet_id
        WHERE b.serial_number = $1 AND r.organization_id = $2`,
      [serialNumber, organizationId],
    )
  )[0]?.n;

beforeAll(async () => {
  t = await createTestApp();
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  t.ctx.now = () => new Date(clock);
});
afterAll(() => t?.close());

describe('a heard device becomes a bracelet', () => {
  it('registered and linked to a wearer, the MAC that was unknown gives a reading at its next advertisement', async () => {
    const org = await organisationWithGateway();
    const mac = freshMac();
    // Unknown: listed (this server's waiting devices are written before the list is read), not stored.
    expect(await hear(org, [mac])).toMatchObject({ accepted: 0, unknownDevices: 1 });
    expect(await hear(org, [mac])).toMatchObject({ accepted: 0, unknownDevices: 1 });
    expect(await listed(org)).toEqual([mac]);

    // Registered (on the shelf, no wearer yet): at once no longer unknown, refused as natively.
    const registered = await t.app.inject({
      method: 'POST',
      url: '/v2/device',
      headers: org.owner.headers,
      payload: { mediromOrganizationId: org.id, serialNumber: mac },
    });
    expect(registered.statusCode).toBe(201);
    expect(await hear(org, [mac])).toEqual({
      accepted: 0,
      duplicates: 0,
      rejected: [{ list: 'readings', index: 0, reason: `bracelet ${mac} has no wearer` }],
      refused: [],
      unknownDevices: 0,
      presenceCoalesced: 0,
    });

    // Linked to a wearer: the next advertisement is a presence reading.
    const wearer = await createWearer(t, { organizationId: org.id });
    const linked = await t.app.inject({
      method: 'POST',
      url: '/v2/user/device/link/gateway',
      headers: org.owner.headers,
      payload: { clientId: org.id, uid: wearer.uid, gatewayId: org.gateway.id, serialNumber: mac },
    });
    expect(linked.statusCode).toBe(200);
    expect(await hear(org, [mac])).toMatchObject({ accepted: 1, rejected: [], unknownDevices: 0 });
    expect(await readingsOf(mac, org.id)).toBe(1);
    expect(await listed(org)).toEqual([mac]); // heard before it was registered; it ages out
  });

  it('registered from the "heard, not registered" list, it leaves the list even while its sightings wait to be written', async () => {
    const org = await organisationWithGateway();
    const [mac, other] = [freshMac(), freshMac()];
    await hear(org, [mac, other]);
    expect((await listed(org)).sort()).toEqual([mac, other].sort());
    await hear(org, [mac, other]); // waiting in memory now
    const reg = await t.app.inject({
      method: 'POST',
      url: `/v2/gateway/${org.gateway.id}/unknownDevices/${mac}/bracelet`,
      headers: org.owner.headers,
    });
    expect(reg.statusCode).toBe(201);
    expect(await listed(org)).toEqual([other]);
    await t.ctx.vendorGateways.unknownDevices.flush();
    expect(await listed(org)).toEqual([other]);
  });
});

describe('a bracelet unlinked or moved to another organisation', () => {
  it('unlinked: its next advertisement is refused item by item; another organisation’s gateway never resolves it', async () => {
    const ours = await organisationWithGateway();
    const theirs = await organisationWithGateway();
    const mac = freshMac();
    const wearer = await createWearer(t, { organizationId: ours.id, serialNumber: mac });
    expect(await hear(ours, [mac])).toMatchObject({ accepted: 1, unknownDevices: 0 });
    // Their gateway hears our bracelet while our look-up is remembered: unknown to them, nothing stored.
    expect(await hear(theirs, [mac])).toMatchObject({
      accepted: 0,
      rejected: [],
      unknownDevices: 1,
    });
    expect(await readingsOf(mac, theirs.id)).toBe(0);
    expect(await listed(theirs)).toEqual([mac]);

    const unlinked = await t.app.inject({
      method: 'POST',
      url: '/v2/user/device/unlink',
      headers: ours.owner.headers,
      payload: { wearableId: wearer.bracelet.id },
    });
    expect(unlinked.statusCode).toBe(200);
    expect(await hear(ours, [mac])).toMatchObject({
      accepted: 0,
      rejected: [{ index: 0, reason: `bracelet ${mac} has no wearer` }],
      unknownDevices: 0,
    });
    expect(await readingsOf(mac, ours.id)).toBe(1);
  });

  it('moved: our gateway no longer resolves it, theirs does, from the next advertisement', async () => {
    const ours = await organisationWithGateway();
    const theirs = await organisationWithGateway();
    const mac = freshMac();
    const wearer = await createWearer(t, { organizationId: ours.id, serialNumber: mac });
    expect(await hear(ours, [mac])).toMatchObject({ accepted: 1 });
    expect(await hear(theirs, [mac])).toMatchObject({ accepted: 0, unknownDevices: 1 });
    // No endpoint moves a bracelet between organisations: an operator's SQL, then the event the product
    // emits for any change of a bracelet (here with its new organisation).
    const theirWearer = await createWearer(t, { organizationId: theirs.id });
    await t.db.query('UPDATE bracelets SET wearer_id = NULL WHERE id = $1', [
      theirWearer.bracelet.id,
    ]);
    await t.db.query(
      `UPDATE bracelets SET organization_id = $2, wearer_id = $3, gateway_id = $4 WHERE id = $1`,
      [wearer.bracelet.id, theirs.id, theirWearer.uid, theirs.gateway.id],
    );
    t.ctx.bus.emit(BUS_EVENTS.braceletChanged, { organizationId: theirs.id, serialNumber: mac });
    expect(await hear(ours, [mac])).toMatchObject({ accepted: 0, rejected: [], unknownDevices: 1 });
    expect(await hear(theirs, [mac])).toMatchObject({ accepted: 1, unknownDevices: 0 });
    expect(await readingsOf(mac, ours.id)).toBe(1);
    expect(await readingsOf(mac, theirs.id)).toBe(1);
  });
});

describe('the unknown devices written every few seconds', () => {
  it('keep the latest signal, when first and last heard, and in how many requests', async () => {
    const org = await organisationWithGateway();
    const mac = freshMac();
    const first = clock + 1000;
    for (let i = 0; i < 3; i++) await hear(org, [mac]);
    const res = await t.app.inject({
      url: `/v2/gateway/${org.gateway.id}/unknownDevices`,
      headers: org.owner.headers,
    });
    expect(res.json<{ devices: unknown[] }>().devices).toEqual([
      {
        deviceId: mac,
        frame: 'ibeacon',
        rssi: 0xb4 - 256,
        beaconId: 'B5B182C7EAB14988AA99B5C1517008D9/1/53092',
        firstHeardAt: new Date(first).toISOString(),
        lastHeardAt: new Date(clock).toISOString(),
        timesHeard: 3,
      },
    ]);
    await hear(org, [mac]);
    await t.ctx.vendorGateways.unknownDevices.flush();
    const again = await t.app.inject({
      url: `/v2/gateway/${org.gateway.id}/unknownDevices`,
      headers: org.owner.headers,
    });
    expect(again.json<{ devices: unknown[] }>().devices).toMatchObject([
      { deviceId: mac, firstHeardAt: new Date(first).toISOString(), timesHeard: 4 },
    ]);
  });
});
