import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { isUrgentBatch } from './ingestion.service.js';

/** Issue 9: readings dated year 1 or 1970 were accepted; a bogus SOS item chose the urgent lane. */
let t: TestApp;
let w: WearerRecord;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWearer(t, { organizationId: (await createOrganization(t)).id });
});
afterAll(() => t.close());

const DAY = 86_400_000;

describe('item dates', () => {
  it('refuses, item by item, anything dated more than 7 days in the past', async () => {
    const at = (iso: string) => ({ serialNumber: w.bracelet.serialNumber, at: iso, heartRate: 70 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
      payload: {
        readings: [
          at('0001-01-01T00:00:00Z'),
          at('1970-01-01T00:00:00Z'),
          at(new Date(Date.now() - 8 * DAY).toISOString()),
          at(new Date(Date.now() - 6 * DAY).toISOString()),
        ],
        events: [
          { serialNumber: w.bracelet.serialNumber, type: 'SOS', at: '1970-01-01T00:00:00Z' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      accepted: number;
      rejected: { list: string; index: number; reason: string }[];
    }>();
    expect(body.accepted).toBe(1);
    const byPlace = (a: { list: string; index: number }, b: { list: string; index: number }) =>
      a.list.localeCompare(b.list) || a.index - b.index;
    expect([...body.rejected].sort(byPlace)).toEqual([
      { list: 'events', index: 0, reason: 'at is more than 7 days in the past' },
      { list: 'readings', index: 0, reason: 'at is more than 7 days in the past' },
      { list: 'readings', index: 1, reason: 'at is more than 7 days in the past' },
      { list: 'readings', index: 2, reason: 'at is more than 7 days in the past' },
    ]);
  });
});

describe('the urgent lane', () => {
  const now = new Date();
  const sos = (extra: object) => ({
    readings: [],
    environment: [],
    events: [{ type: 'SOS', ...extra }],
  });
  it('is chosen only for a valid, current SOS or fall item', () => {
    const valid = { serialNumber: 'BR-1', at: now.toISOString() };
    expect(isUrgentBatch(sos(valid), now)).toBe(true);
    expect(
      isUrgentBatch({ readings: [], environment: [], events: [{ ...valid, type: 'FALL' }] }, now),
    ).toBe(true);
    expect(isUrgentBatch(sos({ at: now.toISOString() }), now)).toBe(false); // no serial number
    expect(isUrgentBatch(sos({ serialNumber: 'BR-1', at: 'yesterday' }), now)).toBe(false);
    expect(isUrgentBatch(sos({ serialNumber: 'BR-1', at: '1970-01-01T00:00:00Z' }), now)).toBe(
      false,
    );
    expect(
      isUrgentBatch(
        sos({ serialNumber: 'BR-1', at: new Date(now.getTime() + DAY).toISOString() }),
        now,
      ),
    ).toBe(false);
  });
});
