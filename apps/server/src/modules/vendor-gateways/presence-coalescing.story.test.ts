// A merely heard tag's presence, coalesced per window (issue 18's cost decision: VENDOR_PRESENCE_INTERVAL_MS,
// 10 s by default), told through the real app and database with April Brother V4 messages on a moved clock:
// the first sighting is a reading at once, the rest of the window one reading at its end with the strongest
// signal, the place still follows the strongest gateway, an SOS never waits, silence still opens DISCONNECTION
// and the return closes it at once, and what is folded is stored when the server stops. The device frames are
// the April Brother V4 user guide's example iBeacon (as in vendor-lookups.story.test.ts) and an Ingics iBS01
// button advertisement of ingics/ingics-message-parser (as in adapters/ingics.test.ts).
import { rmSync } from 'node:fs';
import { encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickAll } from '../alerts/engine-turn.js';
import { createOrganization, createUser, createWearer } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

const IBEACON = '0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5';
const IBS01_BUTTON = '02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF';
const INTERVAL_MS = 10_000;

let t: TestApp;
let clock = Date.now() - 60 * 60_000;
let orgId: string;

const freshMac = () =>
  (0xe00000000000 + Math.floor(Math.random() * 0xffffffffff))
    .toString(16)
    .toUpperCase()
    .padStart(12, '0');
const rssiByte = (dbm: number) => ((dbm + 256) % 256).toString(16).padStart(2, '0');

interface Gateway {
  id: string;
  url: string;
}
interface Heard {
  mac: string;
  rssi: number;
  ad?: string;
}

async function registerGateway(app: TestApp, organizationId: string): Promise<Gateway> {
  const owner = await createUser(app, { role: 'ORGANIZATION_OWNER', organizationId });
  const res = await app.app.inject({
    method: 'POST',
    url: '/v2/gateway',
    headers: owner.headers,
    payload: {
      clientId: organizationId,
      type: 'STATIONARY',
      kind: 'aprilbrother',
      serialNumber: `SN-ab-${Math.random()}`,
      name: 'AB V4',
    },
  });
  expect(res.statusCode).toBe(201);
  const c = res.json<{ connection: { gatewayId: string; pathSecret: string } }>().connection;
  return { id: c.gatewayId, url: `/gateway/v1/aprilbrother/${c.gatewayId}/${c.pathSecret}` };
}

/** The gateway reports these tags now (an AB V4 stamps them with the time the message arrives). */
async function hear(gateway: Gateway, heard: Heard[], app = t) {
  const res = await app.app.inject({
    method: 'POST',
    url: gateway.url,
    headers: { 'content-type': 'application/msgpack' },
    payload: Buffer.from(
      encode({
        v: '1.5.5',
        mid: 1,
        time: 1,
        ip: '192.168.1.20',
        mac: 'C8FD19000001',
        devices: heard.map((h) =>
          Buffer.from(`00${h.mac}${rssiByte(h.rssi)}${h.ad ?? IBEACON}`, 'hex'),
        ),
      }),
    ),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{
    accepted: number;
    rejected: unknown[];
    presenceCoalesced: number;
  }>();
}

const readingsOf = async (braceletId: string, app = t) =>
  (
    await app.db.query<{ at: Date; rssi: number | null; battery: number | null }>(
      `SELECT at, rssi, battery FROM readings WHERE bracelet_id = $1 ORDER BY at`,
      [braceletId],
    )
  ).map((r) => ({ at: r.at.toISOString(), rssi: r.rssi, battery: r.battery }));
const openAlerts = async (wearerId: string) =>
  (
    await t.db.query<{ type: string }>(
      `SELECT type FROM alerts WHERE wearer_id = $1 AND status = 'OPEN'`,
      [wearerId],
    )
  ).map((r) => r.type);
const placeOf = async (wearerId: string) =>
  (
    await t.db.query<{ current: string | null }>(
      `SELECT state->>'current' AS current FROM wearer_places WHERE wearer_id = $1`,
      [wearerId],
    )
  )[0]?.current;
const at = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  t = await createTestApp({ vendorPresenceIntervalMs: INTERVAL_MS });
  // The clock is an hour back and moved by hand: this app's engine timers must not tick others' wearers.
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  t.ctx.now = () => new Date(clock);
  orgId = (await createOrganization(t)).id;
});
afterAll(() => t?.close());

describe('a registered tag merely heard', () => {
  it('is a reading at its first sighting; the rest of its window is one reading at the end, latest time and strongest signal', async () => {
    const gw = await registerGateway(t, orgId);
    const mac = freshMac();
    const w = await createWearer(t, { organizationId: orgId, serialNumber: mac });
    const start = clock;
    expect(await hear(gw, [{ mac, rssi: -80 }])).toMatchObject({
      accepted: 1,
      rejected: [],
      presenceCoalesced: 0,
    });
    expect(await readingsOf(w.bracelet.id)).toEqual([{ at: at(start), rssi: -80, battery: null }]);
    // Heard every second within the window: folded, not stored yet.
    for (const [s, rssi] of [
      [1, -75],
      [2, -58],
      [3, -66],
    ] as const) {
      clock = start + s * 1000;
      expect(await hear(gw, [{ mac, rssi }])).toMatchObject({ accepted: 0, presenceCoalesced: 1 });
    }
    expect(await readingsOf(w.bracelet.id)).toHaveLength(1);
    // The window ends: one reading, its latest sighting's time, its strongest signal.
    clock = start + INTERVAL_MS + 200;
    await t.ctx.vendorGateways.presence.sweep();
    expect(await readingsOf(w.bracelet.id)).toEqual([
      { at: at(start), rssi: -80, battery: null },
      { at: at(start + 3000), rssi: -58, battery: null },
    ]);
  });

  it('heard by two gateways, is placed at the strongest one once their windows end', async () => {
    const [dining, room] = [await registerGateway(t, orgId), await registerGateway(t, orgId)];
    const mac = freshMac();
    const w = await createWearer(t, { organizationId: orgId, serialNumber: mac });
    const start = clock;
    // Both hear it first as weakly: each is a reading at once; the first gateway keeps the place.
    expect(await hear(dining, [{ mac, rssi: -85 }])).toMatchObject({ accepted: 1 });
    clock += 100;
    expect(await hear(room, [{ mac, rssi: -85 }])).toMatchObject({ accepted: 1 });
    expect(await placeOf(w.uid)).toBe(dining.id);
    // Then the room hears it strongly, the dining room as weakly as before: folded per gateway.
    for (let s = 1; s <= 5; s++) {
      clock = start + s * 1000;
      expect(await hear(dining, [{ mac, rssi: -84 }])).toMatchObject({ presenceCoalesced: 1 });
      clock += 100;
      expect(await hear(room, [{ mac, rssi: s === 3 ? -45 : -70 }])).toMatchObject({
        presenceCoalesced: 1,
      });
    }
    clock = start + INTERVAL_MS + 500;
    await t.ctx.vendorGateways.presence.sweep();
    // Each gateway's window gave one reading with its own strongest signal; the room is stronger
    // by more than the switch margin, so the place moves there.
    const readings = await t.db.query<{ gateway_id: string; rssi: number }>(
      `SELECT gateway_id, rssi FROM readings WHERE bracelet_id = $1 ORDER BY at, gateway_id`,
      [w.bracelet.id],
    );
    expect(readings.filter((r) => r.gateway_id === room.id).map((r) => r.rssi)).toEqual([-85, -45]);
    expect(readings.filter((r) => r.gateway_id === dining.id).map((r) => r.rssi)).toEqual([
      -85, -84,
    ]);
    expect(await placeOf(w.uid)).toBe(room.id);
  });

  it('an SOS (and the battery its advertisement carries) never waits for the window', async () => {
    const gw = await registerGateway(t, orgId);
    const mac = freshMac();
    const w = await createWearer(t, { organizationId: orgId, serialNumber: mac });
    const start = clock;
    await hear(gw, [{ mac, rssi: -60 }]);
    clock = start + 2000;
    expect(await hear(gw, [{ mac, rssi: -60 }])).toMatchObject({ presenceCoalesced: 1 });
    // Within the same window its button is pressed: stored and alerted in this request.
    clock = start + 3000;
    expect(await hear(gw, [{ mac, rssi: -60, ad: IBS01_BUTTON }])).toMatchObject({
      accepted: 2, // the SOS and the battery reading
      rejected: [],
      presenceCoalesced: 0,
    });
    expect(await openAlerts(w.uid)).toContain('SOS_CALL');
    expect((await readingsOf(w.bracelet.id)).map((r) => r.battery)).toEqual([null, 100]);
  });

  it('silent, it opens DISCONNECTION; back, its first sighting closes it at once', async () => {
    const gw = await registerGateway(t, orgId);
    const mac = freshMac();
    const w = await createWearer(t, { organizationId: orgId, serialNumber: mac });
    const start = clock;
    await hear(gw, [{ mac, rssi: -60 }]);
    clock = start + 4000;
    await hear(gw, [{ mac, rssi: -62 }]);
    clock = start + INTERVAL_MS;
    await t.ctx.vendorGateways.presence.sweep();
    expect((await readingsOf(w.bracelet.id)).map((r) => r.at)).toEqual([
      at(start),
      at(start + 4000),
    ]);
    // Twenty minutes of silence: the window ended empty (forgotten), the engine's tick opens DISCONNECTION.
    clock = start + 20 * 60_000;
    await t.ctx.vendorGateways.presence.sweep();
    await tickAll(t.ctx, new Date(clock));
    await tickAll(t.ctx, new Date(clock + 60_000));
    expect(await openAlerts(w.uid)).toContain('DISCONNECTION');
    // Heard again: a reading at once, and DISCONNECTION is closed by it.
    clock += 2 * 60_000;
    expect(await hear(gw, [{ mac, rssi: -61 }])).toMatchObject({
      accepted: 1,
      presenceCoalesced: 0,
    });
    expect(await openAlerts(w.uid)).not.toContain('DISCONNECTION');
  });
});

describe('the server stops', () => {
  it('stores what its windows folded before the database closes', async () => {
    const other = await createTestApp({ vendorPresenceIntervalMs: INTERVAL_MS });
    const start = Date.now() - 60_000;
    let now = start;
    other.ctx.cluster = { ...other.ctx.cluster, leads: () => false };
    other.ctx.now = () => new Date(now);
    try {
      const org = await createOrganization(other);
      const gw = await registerGateway(other, org.id);
      const mac = freshMac();
      const w = await createWearer(other, { organizationId: org.id, serialNumber: mac });
      await hear(gw, [{ mac, rssi: -70 }], other);
      now = start + 5000;
      expect(await hear(gw, [{ mac, rssi: -50 }], other)).toMatchObject({ presenceCoalesced: 1 });
      await other.app.close();
      expect(await readingsOf(w.bracelet.id, other)).toEqual([
        { at: at(start), rssi: -70, battery: null },
        { at: at(start + 5000), rssi: -50, battery: null },
      ]);
    } finally {
      await other.db.close();
      rmSync(other.ctx.config.dataDir, { recursive: true, force: true });
    }
  });
});
