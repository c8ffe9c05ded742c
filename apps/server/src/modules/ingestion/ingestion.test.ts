import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createContext } from '../../context.js';
import { confirmAlert } from '../alerts/confirmations.js';
import type { AlertRecord } from '../../bus/events.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import {
  createOrganization,
  createUser,
  createWearer,
  type WearerRecord,
} from '../../testing/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const auth = (w: { gateway: { id: string; credential: string } }) => ({
  authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}`,
});
const post = (headers: Record<string, string | undefined>, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/gateway/v1/batches', headers, payload: payload as object });

async function newWearer(): Promise<WearerRecord> {
  const org = await createOrganization(t.db);
  return createWearer(t.db, { organizationId: org.id });
}
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const count = async (sql: string, params: unknown[]) =>
  Number((await t.db.query<{ n: number }>(sql, params))[0]?.n);

describe('POST /gateway/v1/batches', () => {
  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json<{
      paths: Record<string, { post?: object }>;
    }>();
    expect(doc.paths['/gateway/v1/batches']?.post).toBeDefined();
  });

  it('refuses an unknown gateway, a wrong credential and a missing header with 401', async () => {
    const w = await newWearer();
    const batch = {
      readings: [{ serialNumber: w.bracelet.serialNumber, at: ago(0), heartRate: 70 }],
    };
    for (const headers of [
      { authorization: `Gateway gw-nope:${w.gateway.credential}` },
      { authorization: `Gateway ${w.gateway.id}:wrong` },
      {},
      { authorization: `Bearer ${w.gateway.credential}` },
    ]) {
      const res = await post(headers, batch);
      expect(res.statusCode).toBe(401);
    }
    // Staff of the same organisation, whatever their role, are not gateways.
    for (const role of ['ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ALL_OWNER'] as const) {
      const staff = await createUser(t.ctx, {
        role,
        organizationId: role === 'ALL_OWNER' ? null : w.organizationId,
      });
      expect((await post(staff.headers, batch)).statusCode).toBe(401);
    }
    // a bad credential is 401 even when the body is not JSON
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: 'Gateway x:y', 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(res.statusCode).toBe(401);
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [w.uid]),
    ).toBe(0);
  });

  it('refuses bad items one by one, with a reason, and stores the valid ones', async () => {
    const w = await newWearer();
    const other = await newWearer(); // another organisation's bracelet
    const s = w.bracelet.serialNumber;
    const future = new Date(Date.now() + 6 * 60_000).toISOString();
    const res = await post(auth(w), {
      batchId: 'b-1',
      readings: [
        {
          serialNumber: s,
          at: ago(60_000),
          heartRate: 72,
          skinTemperature: 34.5,
          worn: true,
          steps: 10,
          battery: 81,
        },
        { serialNumber: s, at: ago(59_000), heartRate: 19 },
        { serialNumber: s, at: ago(58_000), heartRate: 251 },
        { serialNumber: s, at: ago(57_000), skinTemperature: 24.9 },
        { serialNumber: s, at: ago(56_000), skinTemperature: 45.1 },
        { serialNumber: s, at: future, heartRate: 70 },
        { serialNumber: 'BR-UNKNOWN', at: ago(55_000), heartRate: 70 },
        { serialNumber: other.bracelet.serialNumber, at: ago(54_000), heartRate: 70 },
        { serialNumber: s, heartRate: 70 },
        'not an object',
        { serialNumber: s, at: ago(50_000), heartRate: 20, skinTemperature: 25, steps: 5 },
        { serialNumber: s, at: ago(49_000), heartRate: 250, skinTemperature: 45 },
      ],
      environment: [
        { at: ago(120_000), temperature: 30, humidity: 60, wbgt: 27.5 },
        { at: 'yesterday' },
      ],
      events: [{ serialNumber: s, type: 'EXPLODED', at: ago(1000) }],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      batchId: string;
      accepted: number;
      duplicates: number;
      rejected: { list: string; index: number; reason: string }[];
    }>();
    expect(body.batchId).toBe('b-1');
    expect(body.accepted).toBe(4);
    expect(body.duplicates).toBe(0);
    const reasons = Object.fromEntries(
      body.rejected.map((r) => [`${r.list}[${r.index}]`, r.reason]),
    );
    expect(reasons['readings[1]']).toMatch(/heartRate 19/);
    expect(reasons['readings[2]']).toMatch(/heartRate 251/);
    expect(reasons['readings[3]']).toMatch(/skinTemperature 24.9/);
    expect(reasons['readings[4]']).toMatch(/skinTemperature 45.1/);
    expect(reasons['readings[5]']).toMatch(/future/);
    expect(reasons['readings[6]']).toBe('unknown bracelet BR-UNKNOWN');
    expect(reasons['readings[7]']).toBe(`unknown bracelet ${other.bracelet.serialNumber}`);
    expect(reasons['readings[8]']).toMatch(/^at/);
    expect(reasons['readings[9]']).toBeDefined();
    expect(reasons['environment[1]']).toMatch(/^at/);
    expect(reasons['events[0]']).toMatch(/^type/);
    expect(body.rejected).toHaveLength(11);

    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [w.uid]),
    ).toBe(3);
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [other.uid]),
    ).toBe(0);
    const [stored] = await t.db.query<{ wbgt: number }>(
      'SELECT wbgt FROM readings WHERE wearer_id = $1 ORDER BY at LIMIT 1',
      [w.uid],
    );
    expect(stored?.wbgt).toBeCloseTo(27.5);
    const [latest] = await t.db.query<Record<string, unknown>>(
      'SELECT * FROM wearer_latest WHERE wearer_id = $1',
      [w.uid],
    );
    expect(latest).toMatchObject({
      heart_rate: 250,
      skin_temperature: 45,
      worn: true,
      battery: 81,
      steps_today: 15,
    });
    const [bracelet] = await t.db.query<{ battery: number }>(
      'SELECT battery FROM bracelets WHERE id = $1',
      [w.bracelet.id],
    );
    expect(bracelet?.battery).toBe(81);
    const [gw] = await t.db.query<{ seen: Date | null }>(
      'SELECT last_seen_at AS seen FROM gateways WHERE id = $1',
      [w.gateway.id],
    );
    expect(gw?.seen).toBeInstanceOf(Date);
  });

  it('a batch with nothing to store (empty, or every item refused) is answered and still marks the gateway seen', async () => {
    const w = await newWearer();
    const empty = await post(auth(w), { readings: [], events: [] });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ accepted: 0, duplicates: 0, rejected: [] });
    const [gw] = await t.db.query<{ seen: Date | null }>(
      'SELECT last_seen_at AS seen FROM gateways WHERE id = $1',
      [w.gateway.id],
    );
    expect(gw?.seen).toBeInstanceOf(Date);
    const refused = await post(auth(w), {
      readings: [{ serialNumber: 'NOT-OURS-0001', at: ago(1000), heartRate: 70 }],
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({
      accepted: 0,
      duplicates: 0,
      rejected: [{ list: 'readings', index: 0 }],
    });
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [w.uid]),
    ).toBe(0);
  });

  it('answers 400 naming the field for a malformed batch, storing nothing', async () => {
    const w = await newWearer();
    const notArray = await post(auth(w), { readings: { serialNumber: w.bracelet.serialNumber } });
    expect(notArray.statusCode).toBe(400);
    expect(notArray.json().message).toMatch(/readings/);
    const tooMany = Array.from({ length: 5001 }, (_, i) => ({
      serialNumber: w.bracelet.serialNumber,
      at: ago(i * 1000),
      heartRate: 70,
    }));
    const big = await post(auth(w), { readings: tooMany });
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/readings/);
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { ...auth(w), 'content-type': 'application/json' },
      payload: '{"readings": [',
    });
    expect(invalid.statusCode).toBe(400);
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [w.uid]),
    ).toBe(0);
  });

  it('stores a retried batch once: duplicates counted, rollups and steps not doubled', async () => {
    const w = await newWearer();
    const base = Date.now() - 10 * 60_000;
    const readings = Array.from({ length: 6 }, (_, i) => ({
      serialNumber: w.bracelet.serialNumber,
      at: new Date(base + i * 10_000).toISOString(),
      heartRate: 60 + i,
      steps: 10,
      worn: true,
    }));
    const batch = {
      readings: [...readings, readings[0]],
      environment: [{ at: ago(3_600_000), wbgt: 20 }],
    };
    const first = (await post(auth(w), batch)).json();
    expect(first).toMatchObject({ accepted: 7, duplicates: 1, rejected: [] });
    const again = (await post(auth(w), batch)).json();
    expect(again).toMatchObject({ accepted: 0, duplicates: 8, rejected: [] });
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [w.uid]),
    ).toBe(6);
    expect(
      await count('SELECT sum(hr_count)::int AS n FROM reading_minutes WHERE wearer_id = $1', [
        w.uid,
      ]),
    ).toBe(6);
    expect(
      await count('SELECT sum(reading_count)::int AS n FROM reading_hours WHERE wearer_id = $1', [
        w.uid,
      ]),
    ).toBe(6);
    expect(
      await count('SELECT steps_today AS n FROM wearer_latest WHERE wearer_id = $1', [w.uid]),
    ).toBe(60);

    // The stored rollups read back through the history API, short (readings) and long (hours) ranges.
    const owner = await createUser(t, {
      role: 'ORGANIZATION_OWNER',
      organizationId: w.organizationId,
    });
    const history = async (from: number, to: number, points: number) => {
      const res = await t.app.inject({
        url: `/v3/device/history?uid=${w.uid}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&points=${points}`,
        headers: owner.headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ points: { steps?: number | null; heartRate?: number | null }[] }>().points;
    };
    const short = await history(base - 60_000, base + 120_000, 10);
    expect(short.reduce((n, p) => n + (p.steps ?? 0), 0)).toBe(60);
    expect(short.some((p) => p.heartRate !== null && p.heartRate !== undefined)).toBe(true);
    const long = await history(base - 40 * 86_400_000, base + 3_600_000, 100);
    expect(long.reduce((n, p) => n + (p.steps ?? 0), 0)).toBe(60);
  });
});

describe('alerts from ingestion', () => {
  it('opens an SOS alert once, emits it after commit, and confirmAlert closes it', async () => {
    const w = await newWearer();
    const opened: AlertRecord[] = [];
    const closed: AlertRecord[] = [];
    const updated: string[] = [];
    const onOpen = (a: AlertRecord) => opened.push(a);
    const onClose = (a: AlertRecord) => closed.push(a);
    const onUpdate = (e: { wearerId: string }) => updated.push(e.wearerId);
    t.ctx.bus.on('alert.opened', onOpen);
    t.ctx.bus.on('alert.closed', onClose);
    t.ctx.bus.on('wearer.updated', onUpdate);
    const batch = {
      events: [{ serialNumber: w.bracelet.serialNumber, type: 'SOS', at: ago(1000) }],
    };
    expect((await post(auth(w), batch)).json()).toMatchObject({ accepted: 1, duplicates: 0 });
    expect((await post(auth(w), batch)).json()).toMatchObject({ accepted: 0, duplicates: 1 });
    const mine = opened.filter((a) => a.wearerId === w.uid);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      type: 'SOS_CALL',
      level: 'EMERGENCY',
      status: 'OPEN',
      organizationId: w.organizationId,
    });
    expect(updated).toContain(w.uid);
    expect(await count(`SELECT count(*)::int AS n FROM alerts WHERE wearer_id = $1`, [w.uid])).toBe(
      1,
    );

    const staff = await createUser(t.ctx, {
      organizationId: w.organizationId,
      role: 'ORGANIZATION_OWNER',
    });
    const result = await confirmAlert(t.ctx, { alertId: mine[0]!.id, userId: staff.uid });
    expect(result.status).toBe('confirmed');
    const [row] = await t.db.query<Record<string, unknown>>('SELECT * FROM alerts WHERE id = $1', [
      mine[0]!.id,
    ]);
    expect(row).toMatchObject({
      status: 'CLOSED',
      close_reason: 'confirmed',
      confirmed_by: staff.uid,
    });
    expect(closed.filter((a) => a.id === mine[0]!.id)).toHaveLength(1);
    expect((await confirmAlert(t.ctx, { alertId: mine[0]!.id, userId: staff.uid })).status).toBe(
      'already_confirmed',
    );
    expect((await confirmAlert(t.ctx, { alertId: 'nope', userId: staff.uid })).status).toBe(
      'not_found',
    );

    // a new SOS after the confirmation opens a new alert
    await post(auth(w), {
      events: [{ serialNumber: w.bracelet.serialNumber, type: 'SOS', at: ago(500) }],
    });
    expect(
      await count(
        `SELECT count(*)::int AS n FROM alerts WHERE wearer_id = $1 AND status = 'OPEN'`,
        [w.uid],
      ),
    ).toBe(1);
    t.ctx.bus.off('alert.opened', onOpen);
    t.ctx.bus.off('alert.closed', onClose);
    t.ctx.bus.off('wearer.updated', onUpdate);
  });

  it('after a restart on the same database, replayed batches neither duplicate nor lose alerts', async () => {
    const w = await newWearer();
    const s = w.bracelet.serialNumber;
    const b1 = {
      events: [{ serialNumber: s, type: 'SOS', at: ago(5000) }],
      readings: [{ serialNumber: s, at: ago(5000), heartRate: 80 }],
    };
    const b2 = { events: [{ serialNumber: s, type: 'FALL', at: ago(4000) }] };
    expect((await post(auth(w), b1)).statusCode).toBe(200);

    // "restart": a new context and app (empty caches) on the same database
    await t.app.close();
    const ctx2 = createContext(t.ctx.config, t.db);
    const app2 = await buildApp(ctx2, { serveWeb: false, logger: false });
    t = { ...t, app: app2, ctx: ctx2 };
    expect((await post(auth(w), b1)).json()).toMatchObject({ accepted: 0, duplicates: 2 });
    expect((await post(auth(w), b2)).json()).toMatchObject({ accepted: 1 });
    expect((await post(auth(w), b2)).json()).toMatchObject({ accepted: 0, duplicates: 1 });
    const types = await t.db.query<{ type: string }>(
      `SELECT type FROM alerts WHERE wearer_id = $1 AND status = 'OPEN' ORDER BY type`,
      [w.uid],
    );
    expect(types.map((r) => r.type)).toEqual(['DETECT_FALL_DOWN', 'SOS_CALL']);
  });
});
