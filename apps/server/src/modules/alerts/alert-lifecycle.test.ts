import { ALERT_POLICY_DEFAULTS } from '@wearable/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createContext } from '../../context.js';
import { alertPolicyRepository } from '../alert-policy/alert-policy.repository.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';
import type { AlertRecord } from '../../bus/events.js';
import { confirmAlert } from './confirmations.js';
import { tickAll } from './engine-turn.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function newWearer(): Promise<WearerRecord> {
  const org = await createOrganization(t.db);
  return createWearer(t.db, { organizationId: org.id, birthDate: '1986-01-01' });
}
const post = (w: WearerRecord, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
    payload,
  });
const openTypes = async (wearerId: string) =>
  (
    await t.db.query<{ type: string }>(
      `SELECT type FROM alerts WHERE wearer_id = $1 AND status = 'OPEN' ORDER BY type`,
      [wearerId],
    )
  ).map((r) => r.type);
const alertCount = async (wearerId: string) =>
  Number(
    (
      await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM alerts WHERE wearer_id = $1',
        [wearerId],
      )
    )[0]?.n,
  );

describe('engine runner', () => {
  it('a heart-rate scenario split by a restart opens its alert once, and the recovery closes it', async () => {
    const w = await newWearer();
    const s = w.bracelet.serialNumber;
    const start = Date.now() - 30 * 60_000;
    const reading = (minute: number, heartRate: number) => ({
      serialNumber: s,
      at: new Date(start + minute * 60_000).toISOString(),
      heartRate,
      worn: true,
      skinTemperature: 34,
    });
    const part1 = { readings: [reading(0, 80), reading(1, 82), reading(2, 205)] };
    // Back within the bounds from minute 4: it closes after the 10-minute recovery window.
    const part2 = { readings: [reading(3, 206), ...[4, 8, 13].map((m) => reading(m, 80))] };
    expect((await post(w, part1)).statusCode).toBe(200);
    expect(await openTypes(w.uid)).toContain('HEART_RATE');

    // Restart (new context: empty caches) and the gateway re-sends everything it had not
    // seen acknowledged, then goes on.
    await t.app.close();
    const ctx2 = createContext(t.ctx.config, t.db);
    t = { ...t, app: await buildApp(ctx2, { serveWeb: false, logger: false }), ctx: ctx2 };
    expect((await post(w, part1)).json()).toMatchObject({ accepted: 0, duplicates: 3 });
    expect((await post(w, part2)).json()).toMatchObject({ accepted: 4 });
    expect(await openTypes(w.uid)).toContain('HEART_RATE');
    const part3 = { readings: [reading(14, 78)] };
    expect((await post(w, part3)).json()).toMatchObject({ accepted: 1 });
    expect((await post(w, part2)).json()).toMatchObject({ accepted: 0, duplicates: 4 });

    const rows = await t.db.query<{ status: string; close_reason: string | null; closed_at: Date }>(
      `SELECT status, close_reason, closed_at FROM alerts WHERE wearer_id = $1 AND type = 'HEART_RATE'`,
      [w.uid],
    );
    expect(rows).toEqual([
      { status: 'CLOSED', close_reason: 'recovered', closed_at: new Date(start + 14 * 60_000) },
    ]);
  });

  it("the organisation's recovery window (its alert policy) decides when an alert closes", async () => {
    const org = await createOrganization(t.db);
    const w = await createWearer(t.db, { organizationId: org.id, birthDate: '1986-01-01' });
    const policy = { ...ALERT_POLICY_DEFAULTS, recoveryMinutes: 3 };
    await alertPolicyRepository(t.db).saveAlertPolicy(org.id, policy, null, new Date());
    const start = Date.now() - 30 * 60_000;
    const reading = (minute: number, heartRate: number) => ({
      serialNumber: w.bracelet.serialNumber,
      at: new Date(start + minute * 60_000).toISOString(),
      heartRate,
    });
    await post(w, { readings: [reading(0, 205), reading(1, 80), reading(3, 80)] });
    expect(await openTypes(w.uid)).toContain('HEART_RATE');
    await post(w, { readings: [reading(4, 80)] });
    expect(await openTypes(w.uid)).not.toContain('HEART_RATE');
  });

  it('the tick opens DISCONNECTION for a silent bracelet, once, and emits it', async () => {
    const w = await newWearer();
    const lastReading = new Date(Date.now() - 20 * 60_000);
    await post(w, {
      readings: [
        {
          serialNumber: w.bracelet.serialNumber,
          at: lastReading.toISOString(),
          heartRate: 70,
          worn: true,
        },
      ],
    });
    const opened: AlertRecord[] = [];
    const listener = (a: AlertRecord) => opened.push(a);
    t.ctx.bus.on('alert.opened', listener);
    await tickAll(t.ctx, new Date());
    await tickAll(t.ctx, new Date(Date.now() + 60_000));
    t.ctx.bus.off('alert.opened', listener);
    expect(await openTypes(w.uid)).toContain('DISCONNECTION');
    expect(opened.filter((a) => a.wearerId === w.uid && a.type === 'DISCONNECTION')).toHaveLength(
      1,
    );
    expect(await alertCount(w.uid)).toBe(1);

    // A new reading reconnects it.
    await post(w, {
      readings: [
        {
          serialNumber: w.bracelet.serialNumber,
          at: new Date().toISOString(),
          heartRate: 70,
          worn: true,
        },
      ],
    });
    expect(await openTypes(w.uid)).not.toContain('DISCONNECTION');
  });
});

describe('several servers on one database', () => {
  it('a server whose cached state is stale reloads it (the other server confirmed in between)', async () => {
    const w = await newWearer();
    const ctxB = createContext(t.ctx.config, t.db);
    const sos = (msAgo: number) => ({
      events: [
        {
          serialNumber: w.bracelet.serialNumber,
          type: 'SOS',
          at: new Date(Date.now() - msAgo).toISOString(),
        },
      ],
    });
    expect((await post(w, sos(3000))).json()).toMatchObject({ accepted: 1 });
    const [alert] = await t.db.query<{ id: string }>(
      `SELECT id FROM alerts WHERE wearer_id = $1 AND status = 'OPEN'`,
      [w.uid],
    );
    expect((await confirmAlert(ctxB, { alertId: alert!.id, userId: w.uid })).status).toBe(
      'confirmed',
    );
    // Server A still holds the state from before the confirmation in memory; a new SOS must open a new alert.
    expect((await post(w, sos(1000))).json()).toMatchObject({ accepted: 1 });
    expect(await openTypes(w.uid)).toEqual(['SOS_CALL']);
    expect(await alertCount(w.uid)).toBe(2);
  });
});

describe('concurrent batches for one wearer', () => {
  it('serialise on the wearer: every event stored, one SOS alert, no deadlock', async () => {
    const w = await newWearer();
    const ctxB = createContext(t.ctx.config, t.db);
    const appB = await buildApp(ctxB, { serveWeb: false, logger: false });
    const base = Date.now() - 60_000;
    const batch = (i: number) => ({
      events: [
        {
          serialNumber: w.bracelet.serialNumber,
          type: 'SOS',
          at: new Date(base + i * 1000).toISOString(),
        },
      ],
      readings: [
        {
          serialNumber: w.bracelet.serialNumber,
          at: new Date(base + i * 1000).toISOString(),
          heartRate: 70,
          worn: true,
        },
      ],
    });
    const headers = { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` };
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? appB : t.app).inject({
          method: 'POST',
          url: '/gateway/v1/batches',
          headers,
          payload: batch(i),
        }),
      ),
    );
    await appB.close();
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const events = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_events WHERE wearer_id = $1',
      [w.uid],
    );
    expect(events[0]?.n).toBe(12);
    expect(await openTypes(w.uid)).toEqual(['SOS_CALL']);
    expect(await alertCount(w.uid)).toBe(1);
  });
});
