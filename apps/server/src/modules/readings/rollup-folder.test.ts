import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../context.js';
import { ingestionService } from '../ingestion/ingestion.service.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';
import { recoverRollups } from './rollup-folder.js';

// Rollups and latest values folded in memory and written by a flush (decision record 0011):
// a flush and, after a process died before its flush, the recovery both give the rows a
// recompute from the stored readings gives.

let t: TestApp;
beforeAll(async () => {
  // No timed flush in this file: the test flushes (or "dies") itself.
  t = await createTestApp({ rollupFlushMs: 60_000 });
});
afterAll(async () => {
  await t?.close();
});

/** Readings every 20 s over 3 minutes, with steps, a sleep stage now and then, and a removal event. */
function batchesFor(w: WearerRecord, start: number, salt: number) {
  const s = w.bracelet.serialNumber;
  const readings = Array.from({ length: 9 }, (_, i) => ({
    serialNumber: s,
    at: new Date(start + i * 20_000).toISOString(),
    heartRate: 60 + ((i * 7 + salt) % 30),
    skinTemperature: 33 + (i % 5) / 10,
    worn: true,
    steps: i + salt,
    ...(i % 4 === 0 ? { sleepStage: 1 + (i % 4) } : {}),
    battery: 90 - i,
  }));
  return [
    { readings: readings.slice(0, 4) },
    // the same readings again (a retry) and a late one out of order
    { readings: [...readings.slice(2, 6), readings[0]] },
    {
      readings: readings.slice(6),
      events: [{ serialNumber: s, type: 'REMOVED', at: new Date(start + 170_000).toISOString() }],
    },
  ];
}

/** What the rollups must be: computed here from the readings, independently of the product's SQL. */
async function expected(wearerId: string) {
  const minutes = await t.db.query<{ bucket: Date; n: number; hrSum: number; steps: number }>(
    `SELECT date_trunc('minute', at) AS bucket, count(*)::int AS n, sum(heart_rate)::float8 AS "hrSum",
            sum(steps)::int AS steps
       FROM readings WHERE wearer_id = $1 GROUP BY 1 ORDER BY 1`,
    [wearerId],
  );
  const last = (
    await t.db.query<{ heartRate: number; battery: number }>(
      `SELECT heart_rate AS "heartRate", battery FROM readings WHERE wearer_id = $1 ORDER BY at DESC LIMIT 1`,
      [wearerId],
    )
  )[0];
  const total = minutes.reduce((sum, m) => sum + m.steps, 0);
  return { minutes, last, total };
}

async function stored(wearerId: string) {
  const minutes = await t.db.query<{ bucket: Date; n: number; hrSum: number; steps: number }>(
    `SELECT bucket, reading_count AS n, hr_sum AS "hrSum", steps FROM reading_minutes
      WHERE wearer_id = $1 ORDER BY bucket`,
    [wearerId],
  );
  const hours = await t.db.query<{ n: number; steps: number }>(
    `SELECT sum(reading_count)::int AS n, sum(steps)::int AS steps FROM reading_hours WHERE wearer_id = $1`,
    [wearerId],
  );
  const latest = (
    await t.db.query<{ heartRate: number; battery: number; worn: boolean; stepsToday: number }>(
      `SELECT heart_rate AS "heartRate", battery, worn, steps_today AS "stepsToday" FROM wearer_latest WHERE wearer_id = $1`,
      [wearerId],
    )
  )[0];
  return { minutes, hours: hours[0], latest };
}

async function pending(wearerId: string): Promise<number> {
  const rows = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM rollup_pending WHERE wearer_id = $1',
    [wearerId],
  );
  return rows[0]?.n ?? 0;
}

// Noon UTC of yesterday: every reading in one local day of the organisation (Asia/Tokyo, +9).
const start = () => Math.floor((Date.now() - 86_400_000) / 86_400_000) * 86_400_000 + 3 * 3_600_000;

async function check(w: WearerRecord) {
  const want = await expected(w.uid);
  const got = await stored(w.uid);
  expect(got.minutes).toEqual(want.minutes);
  expect(got.hours).toEqual({ n: want.minutes.reduce((s, m) => s + m.n, 0), steps: want.total });
  expect(got.latest).toEqual({
    heartRate: want.last?.heartRate,
    battery: want.last?.battery,
    worn: false,
    stepsToday: want.total,
  });
}

describe('rollups folded in memory', () => {
  it('are written by the flush, once, equal to a recompute from the readings', async () => {
    const org = await createOrganization(t.db);
    const w = await createWearer(t.db, { organizationId: org.id });
    const gateway = { id: w.gateway.id, organizationId: org.id };
    for (const b of batchesFor(w, start(), 1))
      await ingestionService(t.ctx).ingest(gateway, { environment: [], events: [], ...b });
    // Nothing written yet, but the transaction recorded what the flush owes.
    expect((await stored(w.uid)).minutes).toEqual([]);
    expect(await pending(w.uid)).toBeGreaterThan(0);
    await t.ctx.rollups.flush();
    await check(w);
    expect(await pending(w.uid)).toBe(0);
    // A replay of every batch, flushed again, changes nothing.
    for (const b of batchesFor(w, start(), 1))
      await ingestionService(t.ctx).ingest(gateway, { environment: [], events: [], ...b });
    await t.ctx.rollups.flush();
    await check(w);
  });

  it('after a process died before its flush, the recovery recomputes exactly what it owed', async () => {
    const org = await createOrganization(t.db);
    const w = await createWearer(t.db, { organizationId: org.id });
    const gateway = { id: w.gateway.id, organizationId: org.id };
    // First minutes flushed by a living process...
    const [first, ...rest] = batchesFor(w, start(), 3);
    await ingestionService(t.ctx).ingest(gateway, { environment: [], events: [], ...first! });
    await t.ctx.rollups.flush();
    // ...then a process that acknowledges batches and is killed before it flushes: its memory is lost.
    const dying = createContext(t.ctx.config, t.db);
    for (const b of rest)
      await ingestionService(dying).ingest(gateway, { environment: [], events: [], ...b });
    expect(await pending(w.uid)).toBeGreaterThan(0);
    // Its generation is young: a living server's flush may still come, so it is left alone...
    expect(
      await recoverRollups(t.db, { olderThanMs: 60_000, exceptGenerations: [], now: new Date() }),
    ).toBe(0);
    // ...until it is older than ROLLUP_RECOVERY_SECONDS.
    const recovered = await recoverRollups(t.db, {
      olderThanMs: 30_000,
      exceptGenerations: t.ctx.rollups.ownGenerations(),
      now: new Date(Date.now() + 31_000),
    });
    expect(recovered).toBeGreaterThan(0);
    expect(await pending(w.uid)).toBe(0);
    await check(w);
  });
});
