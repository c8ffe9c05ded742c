import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MqttService, startMqtt } from '../mqtt/mqtt.js';
import { createOrganization, createWearer } from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createMqttDriver } from './drivers/mqtt.driver.js';
import { silentLogger } from './logger.js';
import { BatchSender, runSimulation } from './runner.js';
import { runScenario } from './scenario.js';
import { Simulation } from './simulation.js';

let t: TestApp;
let broker: MqttService;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  const quiet = { info() {}, warn() {}, error() {} };
  const started = await startMqtt(t.ctx, quiet, { ephemeralPort: true });
  if (!started?.port) throw new Error('embedded broker did not start');
  broker = started;
  url = `mqtt://127.0.0.1:${broker.port}`;
});
afterAll(async () => {
  await broker?.close();
  await t?.close();
});
const count = async (sql: string, params: unknown[]) =>
  Number((await t.db.query<{ n: number }>(sql, params))[0]?.n);

it('MQTT: simulated gateways publish QoS 1 and every item is stored once', async () => {
  const org = await createOrganization(t.db);
  const a = await createWearer(t.db, { organizationId: org.id });
  const b = await createWearer(t.db, { organizationId: org.id, gateway: a.gateway });
  const gateways = [
    {
      gatewayId: a.gateway.id,
      credential: a.gateway.credential,
      serialNumbers: [a.bracelet.serialNumber, b.bracelet.serialNumber],
    },
  ];
  const sim = new Simulation({
    seed: 11,
    start: new Date(Date.now() - 20 * 60_000),
    gateways,
    eventsPerHour: 0,
  });
  const driver = createMqttDriver(url);
  try {
    const sender = new BatchSender(
      driver,
      new Map(gateways.map((g) => [g.gatewayId, g])),
      silentLogger,
    );
    const stats = await runSimulation(sim, sender, { mode: 'fast', stepMs: 5 * 60_000 });
    expect(stats.failedBatches).toBe(0);
    expect(stats.readings).toBeGreaterThanOrEqual(2 * 19);
    expect(stats.accepted).toBe(stats.readings + stats.environment + stats.events);
    expect(
      await count('SELECT count(*)::int AS n FROM readings WHERE wearer_id = ANY($1)', [
        [a.uid, b.uid],
      ]),
    ).toBe(stats.readings);

    // A scenario through the same driver: the BatchResult comes back on the results topic.
    const result = await runScenario(
      driver,
      {
        items: [
          { at: 0, kind: 'event', serialNumber: b.bracelet.serialNumber, values: { type: 'FALL' } },
          {
            at: 1,
            kind: 'reading',
            serialNumber: b.bracelet.serialNumber,
            values: { heartRate: 10 },
          },
        ],
      },
      { start: new Date(Date.now() - 60_000), gateways },
    );
    expect(result.accepted).toBe(1);
    expect(result.results[0]?.rejected).toEqual([
      expect.objectContaining({ list: 'readings', index: 0 }),
    ]);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM alerts WHERE wearer_id = $1 AND type = 'DETECT_FALL_DOWN'`,
        [b.uid],
      ),
    ).toBe(1);
  } finally {
    await driver.close();
  }
});

it('MQTT: a wrong credential fails the batch instead of hanging', async () => {
  const org = await createOrganization(t.db);
  const w = await createWearer(t.db, { organizationId: org.id });
  const driver = createMqttDriver(url);
  try {
    const gateway = { gatewayId: w.gateway.id, credential: 'wrong' };
    await expect(
      driver.send(gateway, { gatewayId: w.gateway.id, readings: [], environment: [], events: [] }),
    ).rejects.toThrow(/MQTT connect/);
  } finally {
    await driver.close();
  }
});
