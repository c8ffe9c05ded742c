import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    // One process: no bus to lose, and it runs the timer jobs.
    expect((await t.app.inject({ url: '/readyz' })).json()).toMatchObject({
      status: 'ready',
      bus: { transport: 'none', connected: true, resyncs: 0, leader: true },
      ingestion: { stoppedMinutes: 10, stopped: expect.any(Array) },
    });
  });
  it('unknown API routes are a 404 with a message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v2/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('/v2/nothing');
  });
});
