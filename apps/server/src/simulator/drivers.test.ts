import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createHttpDriver } from './drivers/http.driver.js';
import { createInProcessDriver } from './drivers/in-process.driver.js';
import type { SimLogger } from './logger.js';
import { BatchSender, runSimulation } from './runner.js';
import { runScenario, type Scenario } from './scenario.js';
import { type SimGateway, Simulation } from './simulation.js';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

const lines: { level: string; msg: string; obj: object }[] = [];
const log: SimLogger = {
  info: (obj, msg) => lines.push({ level: 'info', msg, obj }),
  warn: (obj, msg) => lines.push({ level: 'warn', msg, obj }),
  error: (obj, msg) => lines.push({ level: 'error', msg, obj }),
};
const count = async (sql: string, params: unknown[]) =>
  Number((await t.db.query<{ n: number }>(sql, params))[0]?.n);

/** An organisation with wearers spread over `gateways` gateways, as the simulator sees it. */
async function site(wearers: number, gateways = 1) {
  const org = await createOrganization(t.db);
  const records: WearerRecord[] = [];
  for (let i = 0; i < wearers; i++) {
    const shared = i < gateways ? undefined : records[i % gateways]!.gateway;
    records.push(
      await createWearer(t.db, { organizationId: org.id, ...(shared ? { gateway: shared } : {}) }),
    );
  }
  const simGateways: SimGateway[] = records.slice(0, gateways).map((w) => ({
    gatewayId: w.gateway.id,
    credential: w.gateway.credential,
    serialNumbers: records
      .filter((r) => r.gateway.id === w.gateway.id)
      .map((r) => r.bracelet.serialNumber),
  }));
  return { org, wearers: records, gateways: simGateways };
}

describe('scripted scenario over HTTP', () => {
  it('stores exactly the scripted rows, refuses the bad one and opens the SOS alert', async () => {
    const { wearers, gateways } = await site(2);
    const [a, b] = [wearers[0]!, wearers[1]!];
    const scenario: Scenario = {
      name: 'sos and a bad reading',
      items: [
        {
          at: 0,
          kind: 'environment',
          gatewayId: a.gateway.id,
          values: { temperature: 30, humidity: 60, wbgt: 28.5 },
        },
        {
          at: 5,
          kind: 'reading',
          serialNumber: a.bracelet.serialNumber,
          values: { heartRate: 72, worn: true },
        },
        {
          at: 10,
          kind: 'reading',
          serialNumber: b.bracelet.serialNumber,
          values: { heartRate: 300, worn: true },
        },
        {
          at: 65,
          kind: 'reading',
          serialNumber: a.bracelet.serialNumber,
          values: { heartRate: 75, skinTemperature: 33.1 },
        },
        { at: 90, kind: 'event', serialNumber: a.bracelet.serialNumber, values: { type: 'SOS' } },
      ],
    };
    const start = new Date(Date.now() - 10 * 60_000);
    const result = await runScenario(createHttpDriver(baseUrl), scenario, { start, gateways, log });
    expect(result.accepted).toBe(4);
    expect(result.rejected).toBe(1);
    expect(result.results.flatMap((r) => r.rejected)[0]?.reason).toMatch(/heart/i);

    const rows = await t.db.query<{ heart_rate: number; at: Date }>(
      'SELECT heart_rate, at FROM readings WHERE wearer_id = $1 ORDER BY at',
      [a.uid],
    );
    expect(rows.map((r) => r.heart_rate)).toEqual([72, 75]);
    expect(new Date(rows[0]!.at).getTime()).toBe(start.getTime() + 5000);
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [b.uid]),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM environment_readings WHERE gateway_id = $1', [
        a.gateway.id,
      ]),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'`,
        [a.uid],
      ),
    ).toBe(1);

    // Played again (a gateway retry): nothing stored twice.
    const again = await runScenario(createHttpDriver(baseUrl), scenario, { start, gateways, log });
    expect(again.accepted).toBe(0);
    expect(again.duplicates).toBe(4);
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [a.uid]),
    ).toBe(2);
  });

  it('refuses, before sending anything, a scenario that would run more than 5 minutes ahead', async () => {
    const { wearers, gateways } = await site(1);
    const w = wearers[0]!;
    const scenario: Scenario = {
      items: [
        {
          at: 0,
          kind: 'reading',
          serialNumber: w.bracelet.serialNumber,
          values: { heartRate: 70 },
        },
        {
          at: 600,
          kind: 'reading',
          serialNumber: w.bracelet.serialNumber,
          values: { heartRate: 71 },
        },
      ],
    };
    await expect(
      runScenario(createHttpDriver(baseUrl), scenario, { start: new Date(), gateways }),
    ).rejects.toThrow(/5 minutes ahead/);
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1', [w.uid]),
    ).toBe(0);
  });

  it('refuses a scenario naming a bracelet of no gateway', async () => {
    const { gateways } = await site(1);
    const scenario: Scenario = {
      items: [{ at: 0, kind: 'reading', serialNumber: 'NOPE', values: {} }],
    };
    await expect(
      runScenario(createHttpDriver(baseUrl), scenario, {
        start: new Date(Date.now() - 60_000),
        gateways,
      }),
    ).rejects.toThrow(/NOPE/);
  });
});

describe('simulation drivers deliver to a real server', () => {
  it('HTTP: half an hour of 4 wearers on 2 gateways arrives whole, as fast as the server takes it', async () => {
    const { wearers, gateways } = await site(4, 2);
    const sim = new Simulation({
      seed: 3,
      start: new Date(Date.now() - 30 * 60_000),
      gateways,
      eventsPerHour: 0,
    });
    const sender = new BatchSender(
      createHttpDriver(baseUrl),
      new Map(gateways.map((g) => [g.gatewayId, g])),
      log,
    );
    const stats = await runSimulation(sim, sender, { mode: 'fast', stepMs: 5 * 60_000 });
    expect(stats.failedBatches).toBe(0);
    expect(stats.rejected).toBe(0);
    expect(stats.readings).toBeGreaterThanOrEqual(4 * 29);
    expect(stats.accepted).toBe(stats.readings + stats.environment + stats.events);
    const stored = await count(
      'SELECT count(*)::int AS n FROM readings WHERE wearer_id = ANY($1)',
      [wearers.map((w) => w.uid)],
    );
    expect(stored).toBe(stats.readings);
  });

  it('HTTP: a wrong credential is logged as an undelivered batch, not thrown', async () => {
    const { gateways } = await site(1);
    const bad = gateways.map((g) => ({ ...g, credential: 'wrong' }));
    const sim = new Simulation({
      seed: 3,
      start: new Date(Date.now() - 3 * 60_000),
      gateways: bad,
      eventsPerHour: 0,
    });
    const sender = new BatchSender(
      createHttpDriver(baseUrl),
      new Map(bad.map((g) => [g.gatewayId, g])),
      log,
    );
    const stats = await runSimulation(sim, sender, { mode: 'fast' });
    expect(stats.failedBatches).toBeGreaterThan(0);
    expect(stats.accepted).toBe(0);
    expect(lines.some((l) => l.level === 'error' && /401/.test(JSON.stringify(l.obj)))).toBe(true);
  });

  it('in-process: a triggered fall and SOS open real EMERGENCY alerts through the ingestion service', async () => {
    const { org, wearers, gateways } = await site(2);
    const sim = new Simulation({
      seed: 5,
      start: new Date(Date.now() - 20 * 60_000),
      gateways,
      eventsPerHour: 0,
    });
    sim.trigger('fall', wearers[0]!.bracelet.serialNumber);
    sim.trigger('sos', wearers[1]!.bracelet.serialNumber);
    const sender = new BatchSender(
      createInProcessDriver(t.ctx, org.id),
      new Map(gateways.map((g) => [g.gatewayId, g])),
      log,
    );
    const stats = await runSimulation(sim, sender, { mode: 'fast', stepMs: 10 * 60_000 });
    expect(stats.rejected).toBe(0);
    const alerts = await t.db.query<{ type: string; wearer_id: string; level: string }>(
      'SELECT type, wearer_id, level FROM alerts WHERE organization_id = $1 ORDER BY type',
      [org.id],
    );
    expect(alerts).toEqual(
      expect.arrayContaining([
        { type: 'DETECT_FALL_DOWN', wearer_id: wearers[0]!.uid, level: 'EMERGENCY' },
        { type: 'SOS_CALL', wearer_id: wearers[1]!.uid, level: 'EMERGENCY' },
      ]),
    );
  });
});
