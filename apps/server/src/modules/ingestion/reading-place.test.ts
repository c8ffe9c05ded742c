import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';

// The gateway protocol's optional `rssi` (readings) and `location` (readings and events): stored
// with what they came with, validated item by item like every other field (issues 16 and 17).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (w: WearerRecord, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
    payload: payload as object,
  });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function newWearer(): Promise<WearerRecord> {
  const org = await createOrganization(t.db);
  return createWearer(t.db, { organizationId: org.id });
}

describe('rssi and location in the gateway protocol', () => {
  it('stores the sending gateway and the signal strength with each reading', async () => {
    const w = await newWearer();
    const sn = w.bracelet.serialNumber;
    const res = await post(w, {
      readings: [
        { serialNumber: sn, at: ago(2000), heartRate: 70, rssi: -61 },
        { serialNumber: sn, at: ago(1000), heartRate: 71 },
      ],
    });
    expect(res.json()).toMatchObject({ accepted: 2, rejected: [] });
    const rows = await t.db.query<{ gateway_id: string; rssi: number | null }>(
      'SELECT gateway_id, rssi FROM readings WHERE wearer_id = $1 ORDER BY at',
      [w.uid],
    );
    expect(rows).toEqual([
      { gateway_id: w.gateway.id, rssi: -61 },
      { gateway_id: w.gateway.id, rssi: null },
    ]);
  });

  it('keeps a phone position from readings and events, once, and on the event itself', async () => {
    const w = await newWearer();
    const sn = w.bracelet.serialNumber;
    const location = { latitude: 35.6812, longitude: 139.7671, accuracy: 12.5, at: ago(3000) };
    const sosAt = ago(1500);
    const batch = {
      batchId: 'place-1',
      readings: [{ serialNumber: sn, at: ago(3000), heartRate: 80, location }],
      events: [
        {
          serialNumber: sn,
          type: 'SOS',
          at: sosAt,
          location: { ...location, latitude: 35.6813, at: ago(1500) },
        },
      ],
    };
    expect((await post(w, batch)).json()).toMatchObject({ accepted: 2, rejected: [] });
    // The same batch again (a retry) adds nothing.
    await post(w, batch);
    const positions = await t.db.query<{ latitude: number; accuracy: number; gateway_id: string }>(
      'SELECT latitude, accuracy, gateway_id FROM wearer_positions WHERE wearer_id = $1 ORDER BY at',
      [w.uid],
    );
    expect(positions).toEqual([
      { latitude: 35.6812, accuracy: 12.5, gateway_id: w.gateway.id },
      { latitude: 35.6813, accuracy: 12.5, gateway_id: w.gateway.id },
    ]);
    const [event] = await t.db.query<{ latitude: number; longitude: number; gateway_id: string }>(
      `SELECT latitude, longitude, gateway_id FROM device_events WHERE wearer_id = $1 AND type = 'SOS'`,
      [w.uid],
    );
    expect(event).toEqual({ latitude: 35.6813, longitude: 139.7671, gateway_id: w.gateway.id });
  });

  it('refuses a position or a signal strength out of range, naming the field, and stores the rest', async () => {
    const w = await newWearer();
    const sn = w.bracelet.serialNumber;
    const at = ago(1000);
    const place = { latitude: 35, longitude: 139, accuracy: 10, at };
    const bad = [
      { latitude: 91 },
      { longitude: -180.5 },
      { accuracy: 10_001 },
      { accuracy: -1 },
      { at: new Date(Date.now() + 10 * 60_000).toISOString() },
      { at: 'yesterday' },
    ];
    const res = await post(w, {
      readings: [
        ...bad.map((b, i) => ({
          serialNumber: sn,
          at: ago(10_000 + i * 1000),
          heartRate: 70,
          location: { ...place, ...b },
        })),
        { serialNumber: sn, at: ago(30_000), heartRate: 70, rssi: -131 },
        { serialNumber: sn, at: ago(31_000), heartRate: 70, rssi: -60.5 },
        { serialNumber: sn, at, heartRate: 72, location: place },
      ],
      events: [
        { serialNumber: sn, type: 'FALL', at, location: { ...place, latitude: -90.1 } },
        {
          serialNumber: sn,
          type: 'SOS',
          at: ago(500),
          location: { ...place, at: new Date(Date.now() + 10 * 60_000).toISOString() },
        },
        // Issue 34: an event's signal strength, like its position, is never a reason to lose an SOS.
        { serialNumber: sn, type: 'SOS', at: ago(400), rssi: -131 },
      ],
    });
    const body = res.json<{
      accepted: number;
      rejected: { list: string; index: number; reason: string }[];
      warnings: { list: string; index: number; reason: string }[];
    }>();
    expect(res.statusCode).toBe(200);
    // The reading with a good place, the FALL and the SOSs: kept without a bad position or signal.
    expect(body.accepted).toBe(4);
    expect(body.warnings).toEqual([
      {
        list: 'events',
        index: 0,
        reason: expect.stringMatching(/^location\.latitude: .*; stored without location$/),
      },
      {
        list: 'events',
        index: 1,
        reason: 'location.at is more than 5 minutes in the future; stored without location',
      },
      {
        list: 'events',
        index: 2,
        reason: expect.stringMatching(/^rssi: .*; stored without rssi$/),
      },
    ]);
    const reasons = body.rejected.map((r) => `${r.list}[${r.index}] ${r.reason}`).sort();
    expect(reasons).toHaveLength(8);
    expect(reasons[0]).toMatch(/^readings\[0\] location\.latitude/);
    expect(reasons[1]).toMatch(/^readings\[1\] location\.longitude/);
    expect(reasons[2]).toMatch(/^readings\[2\] location\.accuracy/);
    expect(reasons[3]).toMatch(/^readings\[3\] location\.accuracy/);
    expect(reasons[4]).toBe('readings[4] location.at is more than 5 minutes in the future');
    expect(reasons[5]).toMatch(/^readings\[5\] location\.at/);
    expect(reasons[6]).toMatch(/^readings\[6\] rssi/);
    expect(reasons[7]).toMatch(/^readings\[7\] rssi/);
    const stored = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1',
      [w.uid],
    );
    expect(stored[0]?.n).toBe(1);
    const events = await t.db.query<{ type: string; latitude: number | null }>(
      'SELECT type, latitude FROM device_events WHERE wearer_id = $1 ORDER BY at',
      [w.uid],
    );
    expect(events).toEqual([
      { type: 'FALL', latitude: null },
      { type: 'SOS', latitude: null },
      { type: 'SOS', latitude: null },
    ]);
    const positions = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM wearer_positions WHERE wearer_id = $1',
      [w.uid],
    );
    expect(positions[0]?.n).toBe(1);
  });
});
