import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpDriver } from './drivers/http.driver.js';
import type { SimulatorDriver } from './drivers/driver.js';
import { silentLogger } from './logger.js';
import { BatchSender, runSimulation } from './runner.js';
import { type OutboundBatch, Simulation } from './simulation.js';

const gateways = [{ gatewayId: 'g1', credential: 'c', serialNumbers: ['A', 'B', 'C'] }];
const credentials = new Map(gateways.map((g) => [g.gatewayId, g]));

/** Records what it is sent and when (on the run's clock); accepts everything. */
function recordingDriver(clock: () => number) {
  const sent: { sentAt: number; batch: OutboundBatch }[] = [];
  const driver: SimulatorDriver = {
    name: 'recording',
    send(_gateway, batch) {
      sent.push({ sentAt: clock(), batch });
      const n = batch.readings.length + batch.environment.length + batch.events.length;
      return Promise.resolve({ accepted: n, duplicates: 0, rejected: [] });
    },
    async close() {},
  };
  return { driver, sent };
}

describe('runSimulation', () => {
  it('real time: sends each item once, in order, never before its time', async () => {
    let now = Date.parse('2026-07-06T10:00:00+09:00');
    const clock = () => now;
    // Every call of the run's clock moves it 7 s on: a minute of wall time in a few ms.
    const ticking = () => new Date((now += 7000));
    const { driver, sent } = recordingDriver(clock);
    const sim = new Simulation({ seed: 1, start: new Date(now), gateways, eventsPerHour: 0 });
    const stats = await runSimulation(sim, new BatchSender(driver, credentials, silentLogger), {
      mode: 'realtime',
      now: ticking,
      batchIntervalMs: 1,
      stopAt: new Date(now + 10 * 60_000),
    });
    const readings = sent.flatMap((s) => s.batch.readings.map((r) => ({ ...r, sentAt: s.sentAt })));
    expect(readings.length).toBe(stats.readings);
    expect(readings.length).toBeGreaterThanOrEqual(3 * 9);
    for (const r of readings) expect(Date.parse(r.at)).toBeLessThanOrEqual(r.sentAt);
    const keys = readings.map((r) => `${r.serialNumber}|${r.at}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Several small batches, not one at the end.
    expect(sent.length).toBeGreaterThan(10);
  });

  it('fast: stops short of 5 minutes ahead of the clock even when asked for more', async () => {
    const now = Date.now();
    const { driver, sent } = recordingDriver(() => now);
    const sim = new Simulation({
      seed: 1,
      start: new Date(now - 30 * 60_000),
      gateways,
      eventsPerHour: 0,
    });
    await runSimulation(sim, new BatchSender(driver, credentials, silentLogger), {
      mode: 'fast',
      now: () => new Date(now),
      until: new Date(now + 60 * 60_000),
    });
    const latest = Math.max(...sent.flatMap((s) => s.batch.readings.map((r) => Date.parse(r.at))));
    expect(latest).toBeLessThan(now + 5 * 60_000);
    expect(latest).toBeGreaterThan(now);
  });
});

describe('HTTP driver', () => {
  let server: Server | undefined;
  afterEach(
    () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  );

  /** A stand-in server: answers with the given statuses in turn. */
  async function serve(statuses: number[]): Promise<{ url: string; calls: () => number }> {
    let calls = 0;
    server = createServer((req, res) => {
      const status = statuses[Math.min(calls++, statuses.length - 1)]!;
      req.resume();
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          status === 200 ? { accepted: 1, duplicates: 0, rejected: [] } : { message: 'no' },
        ),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      calls: () => calls,
    };
  }
  const batch: OutboundBatch = { gatewayId: 'g1', readings: [], environment: [], events: [] };

  it('retries a 503 (ingestion is idempotent) and returns the result', async () => {
    const stub = await serve([503, 200]);
    const result = await createHttpDriver(stub.url).send(
      { gatewayId: 'g1', credential: 'c' },
      batch,
    );
    expect(result.accepted).toBe(1);
    expect(stub.calls()).toBe(2);
  });

  it('does not retry a 401', async () => {
    const stub = await serve([401, 200]);
    await expect(
      createHttpDriver(stub.url).send({ gatewayId: 'g1', credential: 'c' }, batch),
    ).rejects.toThrow(/401/);
    expect(stub.calls()).toBe(1);
  });
});
