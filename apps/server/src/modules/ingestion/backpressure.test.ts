import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { postBatch } from '../../testing/gateway-batch.js';
import { ingestionService } from './ingestion.service.js';

// A tiny limit: one batch in progress is already the most the server takes.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ingestMaxPending: 1 });
});
afterAll(() => t?.close());

const post = (wearer: WearerRecord, payload: object) => postBatch(t, wearer.gateway, payload);
const reading = (wearer: WearerRecord, heartRate: number) => ({
  readings: [
    { serialNumber: wearer.bracelet.serialNumber, at: new Date().toISOString(), heartRate },
  ],
});

describe('ingestion backpressure', () => {
  it('answers 503 with Retry-After beyond the limit, stores nothing then, and always takes an SOS', async () => {
    const org = await createOrganization(t);
    const w = await createWearer(t, { organizationId: org.id });
    const other = await createWearer(t, { organizationId: org.id });
    // Warm the gateway and bracelet caches so the requests below only wait for the database.
    expect((await post(w, reading(w, 60))).statusCode).toBe(200);
    expect((await post(other, reading(other, 60))).statusCode).toBe(200);

    // Hold the wearer's engine state lock (PGlite: the connection) until released.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM engine_state WHERE wearer_id = $1 FOR UPDATE', [w.uid]);
      locked();
      await held;
    });
    await isLocked;
    const first = post(w, reading(w, 61));
    for (let i = 0; i < 200 && ingestionService(t.ctx).backlog() < 1; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(ingestionService(t.ctx).backlog()).toBe(1);

    const refused = await post(other, reading(other, 99));
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ statusCode: 503, code: 'INGESTION_BUSY' });

    const sos = post(w, {
      events: [
        { serialNumber: w.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
      ],
    });
    release();
    await holder;
    expect((await first).statusCode).toBe(200);
    expect((await sos).json()).toMatchObject({ accepted: 1 });
    const rows = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1 AND heart_rate = 99',
      [other.uid],
    );
    expect(rows[0]?.n).toBe(0);
    expect(ingestionService(t.ctx).backlog()).toBe(0);
    // Below the limit again: taken.
    expect((await post(other, reading(other, 98))).statusCode).toBe(200);
  });
});
