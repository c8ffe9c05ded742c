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
    for (const daysAgo of [1, 29, 31, 401])
      expect((await post(new Date(now.getTime() - daysAgo * DAY))).statusCode).toBe(200);
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
    expect(deleted.readings).toBeGreaterThanOrEqual(2);
    expect(await count('readings')).toBe(2); // 1 and 29 days old stay (default 30 days)
    expect(await count('reading_minutes')).toBe(3); // the 401-day-old minute is gone
    // Hours are kept; the 401-day-old reading never touched its hour (its minutes may be gone).
    expect(await count('reading_hours')).toBe(3);
  });
});
