import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Gateway items at the edges of what the protocol allows (docs/gateway-protocol.md): the oldest and
 * newest times, every value at its bounds, odd offsets. Each batch is answered item by item, never
 * with a 5xx, and a redelivery of it stores nothing twice.
 */
let t: TestApp;
let w: WearerRecord;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWearer(t, { organizationId: (await createOrganization(t)).id });
});
afterAll(() => t?.close());

const send = (payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: {
      authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(payload),
  });

describe('gateway items at the edges', () => {
  it('are stored or refused one by one, and a redelivery stores nothing twice', async () => {
    const serial = w.bracelet.serialNumber;
    const now = Date.now();
    const times = [
      '0001-01-01T00:00:00Z',
      '0001-01-01T00:00:00+15:59',
      '1900-01-01T00:00:00-15:59',
      '1970-01-01T00:00:00Z',
      '2000-02-29T23:59:59.999999Z',
      new Date(now - 1000).toISOString(),
      new Date(now + 4 * 60_000).toISOString(),
      '9999-12-31T23:59:59Z',
    ];
    const readings = times.flatMap((at, i) => [
      {
        serialNumber: serial,
        at,
        heartRate: 20,
        skinTemperature: 25,
        worn: false,
        steps: 0,
        sleepStage: 1,
        stressLevel: 'NONE',
        battery: 0,
      },
      {
        serialNumber: serial,
        at: at.replace(
          /(\d\d):(\d\d)(\.\d+)?(Z|[+-])/,
          (_m, mm: string, _ss, _f, z: string) => `${mm}:${String(30 + i).padStart(2, '0')}${z}`,
        ),
        heartRate: 250,
        skinTemperature: 45,
        worn: true,
        steps: 100_000,
        sleepStage: 4,
        stressLevel: 'OVERLOAD',
        battery: 100,
      },
    ]);
    const batch = {
      batchId: 'edges',
      readings,
      environment: times.map((at, i) => ({
        at,
        temperature: i % 2 ? -40 : 70,
        humidity: i % 2 ? 0 : 100,
        wbgt: i % 2 ? -40 : 60,
      })),
      events: times.flatMap((at) =>
        ['SOS', 'FALL', 'WORN', 'REMOVED'].map((type) => ({ serialNumber: serial, type, at })),
      ),
    };
    const first = await send(batch);
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json<{
      accepted: number;
      duplicates: number;
      rejected: { list: string; index: number; reason: string }[];
    }>();
    // Refused: times beyond 5 minutes ahead, more than 7 days past (years 1, 1900, 1970, 2000), and year
    // 0001 at +15:59 (year 0 in UTC, which made the batch a 500). Only the current items are stored.
    expect(
      result.rejected.every(
        (r) =>
          r.reason.includes('future') ||
          r.reason.includes('7 days in the past') ||
          r.reason.includes('years 0001-9999'),
      ),
      JSON.stringify(result.rejected),
    ).toBe(true);
    expect(result.rejected.some((r) => r.reason.includes('years 0001-9999'))).toBe(true);
    expect(result.rejected.some((r) => r.reason.includes('7 days in the past'))).toBe(true);
    expect(result.accepted).toBeGreaterThan(0);
    const total = readings.length + batch.environment.length + batch.events.length;
    expect(result.accepted + result.duplicates + result.rejected.length).toBe(total);

    const again = await send(batch);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ accepted: number }>().accepted).toBe(0);
  });
});
