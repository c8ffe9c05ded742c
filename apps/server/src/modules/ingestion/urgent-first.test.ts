import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmAlert } from '../../engine/confirmations.js';
import type { AlertRecord } from '../../engine/events.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createOrganization, createUser, createWearer } from '../../testing/factories.js';

// An SOS from a worn bracelet must not wait for the batch of readings its gateway has in flight,
// which holds the wearer's engine lock until it commits (engine/urgent-open.ts). PostgreSQL only:
// on PGlite transactions run one at a time and no lock is ever waited for.
describe.runIf(process.env.TEST_DATABASE_URL)('an SOS while a batch holds the wearer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (w: { gateway: { id: string; credential: string } }, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
      payload: payload as object,
    });
  const sosAlerts = (wearerId: string) =>
    t.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' ORDER BY opened_at`,
      [wearerId],
    );

  /** Holds the wearer's engine_state row as an in-flight batch does, until release(). */
  async function holdWearer(wearerId: string) {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => (locked = r));
    const done = t.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM engine_state WHERE wearer_id = $1 FOR UPDATE', [wearerId]);
      locked();
      await held;
    });
    await lockTaken;
    return { release, done };
  }

  it('opens and announces the SOS while the lock is held; the engine records it once after', async () => {
    const org = await createOrganization(t.db);
    const w = await createWearer(t.db, { organizationId: org.id });
    const serial = w.bracelet.serialNumber;
    const opened: AlertRecord[] = [];
    const listener = (a: AlertRecord) => {
      if (a.wearerId === w.uid) opened.push(a);
    };
    t.ctx.bus.on('alert.opened', listener);
    try {
      // Worn and read: the wearer has an engine state.
      const reading = await post(w, {
        readings: [
          { serialNumber: serial, at: new Date(Date.now() - 5_000).toISOString(), heartRate: 72 },
        ],
      });
      expect(reading.statusCode).toBe(200);

      const hold = await holdWearer(w.uid);
      const sosAt = new Date(Date.now() - 1_000).toISOString();
      const sosBatch = { events: [{ serialNumber: serial, at: sosAt, type: 'SOS' }] };
      let answered = false;
      const sos = post(w, sosBatch).then((res) => {
        answered = true;
        return res;
      });
      // The alert is stored and announced while the batch still holds the wearer's lock.
      await expect.poll(() => opened.length, { timeout: 5_000 }).toBe(1);
      expect(opened[0]).toMatchObject({ type: 'SOS_CALL', level: 'EMERGENCY', status: 'OPEN' });
      expect(opened[0]!.place).not.toBeNull();
      expect(await sosAlerts(w.uid)).toEqual([{ id: opened[0]!.id, status: 'OPEN' }]);
      // The gateway's answer waits for the engine's turn, after commit as always.
      expect(answered).toBe(false);

      hold.release();
      await hold.done;
      const res = await sos;
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ accepted: 1, duplicates: 0 });
      // The engine's turn found it open: one alert, announced once, and recorded in its state.
      expect(await sosAlerts(w.uid)).toHaveLength(1);
      expect(opened).toHaveLength(1);
      const [row] = await t.db.query<{ state: { alerts: { open: Record<string, number> } } }>(
        'SELECT state FROM engine_state WHERE wearer_id = $1',
        [w.uid],
      );
      expect(row?.state.alerts.open.SOS_CALL).toBe(new Date(sosAt).getTime());

      // Once confirmed, a new press opens a new SOS ...
      const staff = await createUser(t.ctx, { organizationId: org.id, role: 'ORGANIZATION_OWNER' });
      expect(
        (await confirmAlert(t.ctx, { alertId: opened[0]!.id, userId: staff.uid })).status,
      ).toBe('confirmed');
      // ... but the first press sent again (a lost answer) opens nothing.
      const again = await post(w, sosBatch);
      expect(again.json()).toMatchObject({ accepted: 0, duplicates: 1 });
      expect(await sosAlerts(w.uid)).toEqual([{ id: opened[0]!.id, status: 'CLOSED' }]);

      const second = await post(w, {
        events: [{ serialNumber: serial, at: new Date().toISOString(), type: 'SOS' }],
      });
      expect(second.json()).toMatchObject({ accepted: 1 });
      expect((await sosAlerts(w.uid)).map((a) => a.status)).toEqual(['CLOSED', 'OPEN']);
      expect(opened).toHaveLength(2);
    } finally {
      t.ctx.bus.off('alert.opened', listener);
    }
  });

  it('leaves a bracelet with no engine state yet to the engine, which opens its SOS as before', async () => {
    const org = await createOrganization(t.db);
    const w = await createWearer(t.db, { organizationId: org.id });
    const res = await post(w, {
      events: [
        { serialNumber: w.bracelet.serialNumber, at: new Date().toISOString(), type: 'FALL' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.db.query<{ type: string }>(
      `SELECT type FROM alerts WHERE wearer_id = $1`,
      [w.uid],
    );
    expect(rows).toEqual([{ type: 'DETECT_FALL_DOWN' }]);
  });
});
