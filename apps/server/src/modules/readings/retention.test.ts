import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createOrganization, createWearer } from '../../testing/factories.js';
import { deleteExpiredTelemetry } from './retention.job.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;

describe('telemetry retention', () => {
  it('deletes full resolution after READINGS_RETENTION_DAYS and minutes after 400 days, keeps hours', async () => {
    const org = await createOrganization(t.db);
    const w = await createWearer(t.db, { organizationId: org.id });
    const now = new Date();
    const post = (at: Date) =>
      t.app.inject({
        method: 'POST',
        url: '/gateway/v1/batches',
        headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
        payload: {
          readings: [
            { serialNumber: w.bracelet.serialNumber, at: at.toISOString(), heartRate: 70 },
          ],
        },
      });
    // Each reading is sent when it was taken (the gateway refuses nothing older than 7 days).
    const realNow = t.ctx.now;
    const cluster = t.ctx.cluster;
    // This app's timer jobs stay still while its clock is in the past (test files share a database).
    t.ctx.cluster = { ...cluster, leads: () => false };
    try {
      for (const daysAgo of [1, 29, 31, 401]) {
        const at = new Date(now.getTime() - daysAgo * DAY);
        t.ctx.now = () => new Date(at.getTime() + 60_000);
        expect((await post(at)).statusCode).toBe(200);
      }
    } finally {
      t.ctx.now = realNow;
      t.ctx.cluster = cluster;
    }
    const count = async (table: string) =>
      Number(
        (
          await t.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${table} WHERE wearer_id = $1`,
            [w.uid],
          )
        )[0]?.n,
      );
    expect(await count('readings')).toBe(4);

    const deleted = await deleteExpiredTelemetry(t.ctx, now);
    // Expired readings go row by row (default partition) or with their whole partition (the partition
    // job follows ctx.now, so it may have prepared partitions for the days this test sent to).
    expect((deleted.readings ?? 0) + (deleted.readingsPartitions ?? 0)).toBeGreaterThanOrEqual(1);
    expect(await count('readings')).toBe(2); // 1 and 29 days old stay (default 30 days)
    expect(await count('reading_minutes')).toBe(3); // the 401-day-old minute is gone
    // Hours are kept forever, the 401-day-old one included (sent back then, it made its hour).
    expect(await count('reading_hours')).toBe(4);
  });
});
