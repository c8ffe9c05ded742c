import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertWritesRepository } from '../alerts/alert-writes.repository.js';
import type { AlertRecord } from '../../bus/events.js';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { alertOutboxService } from './alert-outbox.service.js';

// The alert outbox (migration 038): an opened alert's live frame and notices are rows written with
// the alert; a deliverer takes them whether or not the process that wrote them emitted anything.
describe('the alert outbox', () => {
  let t: TestApp;
  let w: WearerRecord;
  beforeAll(async () => {
    t = await createTestApp();
    const org = await createOrganization(t.db);
    w = await createWearer(t.db, { organizationId: org.id });
  });
  afterAll(async () => {
    await t?.close();
  });

  const open = (type: 'SOS_CALL' | 'DETECT_FALL_DOWN', notify: boolean) => {
    const at = new Date();
    return alertWritesRepository(t.db).insertOpen({
      id: randomUUID(),
      organizationId: w.organizationId,
      groupId: w.groupId,
      wearerId: w.uid,
      braceletId: w.bracelet.id,
      type,
      level: 'EMERGENCY',
      openedAt: at,
      raisedAt: at,
      cause: {
        rule: 'test',
        values: {},
        windowStart: at.toISOString(),
        windowEnd: at.toISOString(),
      },
      notify,
    });
  };
  const rows = (alertId: string) =>
    t.db.query<{ kind: string }>(
      'SELECT kind FROM alert_outbox WHERE alert_id = $1 ORDER BY kind',
      [alertId],
    );
  const framesOf = (alertId: string) => {
    const frames: AlertRecord[] = [];
    const on = (a: AlertRecord) => a.id === alertId && frames.push(a);
    t.ctx.bus.on('alert.opened', on);
    return { frames, off: () => t.ctx.bus.off('alert.opened', on) };
  };

  it('writes the live frame and the notices with the alert, and emits the frame of an alert nobody announced', async () => {
    const alert = (await open('SOS_CALL', true))!;
    expect((await rows(alert.id)).map((r) => r.kind)).toEqual(['live', 'notice']);
    // Its process died before emitting it: nothing was announced. A deliverer takes the rows.
    const seen = framesOf(alert.id);
    try {
      t.ctx.alertOutbox.adopt(alert.id);
      const started = Date.now();
      await expect.poll(() => seen.frames.length, { timeout: 5_000, interval: 50 }).toBe(1);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(seen.frames[0]).toMatchObject({ id: alert.id, type: 'SOS_CALL', status: 'OPEN' });
      await expect.poll(async () => (await rows(alert.id)).length, { timeout: 5_000 }).toBe(0);
      expect(seen.frames).toHaveLength(1);
    } finally {
      seen.off();
    }
  });

  it('an alert that does not notify has only its live frame; one already announced is not emitted again', async () => {
    const alert = (await open('DETECT_FALL_DOWN', false))!;
    expect((await rows(alert.id)).map((r) => r.kind)).toEqual(['live']);
    // Announced on this bus right after its commit, as the engine does (runner.ts announceOpened).
    t.ctx.bus.emit('alert.opened', alert);
    const seen = framesOf(alert.id);
    try {
      t.ctx.alertOutbox.wake();
      await expect.poll(async () => (await rows(alert.id)).length, { timeout: 5_000 }).toBe(0);
      expect(seen.frames).toHaveLength(0);
    } finally {
      seen.off();
    }
  });

  it('enqueue() is what another alert writer calls in its transaction: a row per kind, once', async () => {
    w = await createWearer(t.db, { organizationId: w.organizationId });
    const alert = (await open('SOS_CALL', false))!;
    await t.db.transaction(async (tx) => {
      await alertOutboxService(t.ctx).enqueue(tx, [
        { alertId: alert.id, kind: 'notice' },
        { alertId: alert.id, kind: 'live' },
      ]);
    });
    expect((await rows(alert.id)).map((r) => r.kind).sort()).toEqual(['live', 'notice']);
  });
});
