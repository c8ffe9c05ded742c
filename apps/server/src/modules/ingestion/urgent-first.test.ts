import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_SCHEDULE } from '@wearable/domain';
import { confirmAlert } from '../alerts/confirmations.js';
import type { AlertRecord } from '../../bus/events.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import {
  createGroup,
  createOrganization,
  createUser,
  createWearer,
} from '../../testing/factories.js';

// An SOS from a worn bracelet must not wait for the batch of readings its gateway has in flight,
// which holds the wearer's engine lock until it commits (modules/alerts/urgent-open.ts). PostgreSQL only:
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
      // The event was stored with its alert, so the engine's turn skipped it: one alert, announced
      // once. (The state does not record this opening: a confirmation racing the batch can never
      // leave the state holding an alert that is not open, modules/alerts/urgent-open.ts.)
      expect(await sosAlerts(w.uid)).toHaveLength(1);
      expect(opened).toHaveLength(1);
      const [row] = await t.db.query<{ state: { alerts: { open: Record<string, number> } } }>(
        'SELECT state FROM engine_state WHERE wearer_id = $1',
        [w.uid],
      );
      expect(row?.state.alerts.open.SOS_CALL).toBeUndefined();

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

  it('a batch that fails after the SOS lane committed, resent once staff confirmed the alert, opens nothing and notifies once', async () => {
    // A second server on the same database whose SOS batches fail right after the urgent lane's
    // commit, once (TEST_FAULT=urgent-committed:throw): the gateway gets a 500 and sends it again.
    const faulty = await createTestApp({
      databaseUrl: inject('testDatabaseUrl'),
      testFault: { at: 'urgent-committed', action: 'throw' },
    });
    try {
      const org = await createOrganization(t.db);
      const group = await createGroup(t.db, { organizationId: org.id });
      const w = await createWearer(t.db, { organizationId: org.id, groupId: group.id });
      await t.db.query(
        `INSERT INTO group_alert_notice_settings
           (id, organization_id, group_id, phone_number, channel, alert_types, schedule, step, position)
         VALUES ($1, $2, $3, '+819055550001', 'SMS', '["SOS_CALL"]', $4::jsonb, 1, 0)`,
        [randomUUID(), org.id, group.id, JSON.stringify(DEFAULT_SCHEDULE)],
      );
      const send = (payload: object) =>
        faulty.app.inject({
          method: 'POST',
          url: '/gateway/v1/batches',
          headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
          payload,
        });
      const reading = await send({
        readings: [
          {
            serialNumber: w.bracelet.serialNumber,
            at: new Date(Date.now() - 5_000).toISOString(),
            heartRate: 72,
          },
        ],
      });
      expect(reading.statusCode).toBe(200);
      const sosBatch = {
        events: [
          {
            serialNumber: w.bracelet.serialNumber,
            at: new Date(Date.now() - 1_000).toISOString(),
            type: 'SOS',
          },
        ],
      };
      const failed = await send(sosBatch);
      expect(failed.statusCode).toBe(500);
      const [first] = await sosAlerts(w.uid);
      expect(first).toMatchObject({ status: 'OPEN' });
      // Its notice leaves from the outbox although nothing after the commit ran. (Test apps deliver
      // only alerts they saw opened, as files share the database: this one is taken as a live
      // server's poll would take it.)
      t.ctx.alertOutbox.adopt(first!.id);
      const notices = () =>
        t.db.query<{ recipient: string }>(
          'SELECT recipient FROM notifications WHERE alert_id = $1',
          [first!.id],
        );
      await expect.poll(async () => (await notices()).length, { timeout: 10_000 }).toBe(1);
      await expect
        .poll(
          async () =>
            (
              await t.db.query('SELECT 1 FROM notification_escalations WHERE alert_id = $1', [
                first!.id,
              ])
            ).length,
          { timeout: 10_000 },
        )
        .toBe(1);

      const staff = await createUser(t.ctx, { organizationId: org.id, role: 'ORGANIZATION_OWNER' });
      expect((await confirmAlert(t.ctx, { alertId: first!.id, userId: staff.uid })).status).toBe(
        'confirmed',
      );
      // The gateway's resend: the event is stored (with its alert), so nothing opens again.
      const resent = await send(sosBatch);
      expect(resent.statusCode).toBe(200);
      expect(resent.json()).toMatchObject({ accepted: 0, duplicates: 1 });
      expect(await sosAlerts(w.uid)).toEqual([{ id: first!.id, status: 'CLOSED' }]);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await notices()).toHaveLength(1);
      expect(
        await t.db.query('SELECT kind FROM alert_outbox WHERE alert_id = $1', [first!.id]),
      ).toEqual([]);
    } finally {
      await faulty.close();
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
