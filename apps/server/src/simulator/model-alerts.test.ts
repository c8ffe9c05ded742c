import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOrganization, createWearer } from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createInProcessDriver } from './drivers/in-process.driver.js';
import { silentLogger } from './logger.js';
import { BatchSender, runSimulation } from './runner.js';
import { Simulation } from './simulation.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/**
 * 09:00 in Tokyo on the most recent Tuesday, Wednesday or Thursday at least two days ago: a working
 * morning in the past, at most 6 days back (the gateway protocol refuses items older than 7 days).
 */
function pastWorkingMorning(): Date {
  const day = new Date(Date.now() - 2 * 86_400_000);
  const tokyo = new Date(day.getTime() + 9 * 3_600_000);
  while (![2, 3, 4].includes(tokyo.getUTCDay())) tokyo.setUTCDate(tokyo.getUTCDate() - 1);
  return new Date(Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth(), tokyo.getUTCDate(), 0, 0));
}

it('a simulated heat episode and a sustained high heart rate open the engine heat and heart-rate alerts', async () => {
  const org = await createOrganization(t.db);
  // Fixed serials: each simulated wearer's random stream derives from its serial, so random
  // ones made this scenario (and whether core temperature crossed 38 C) differ run to run.
  const hot = await createWearer(t.db, {
    organizationId: org.id,
    birthDate: '1980-05-01',
    serialNumber: 'SIM-ALERTS-HOT',
  });
  const racing = await createWearer(t.db, {
    organizationId: org.id,
    birthDate: '1980-05-01',
    gateway: hot.gateway,
    serialNumber: 'SIM-ALERTS-RACING',
  });
  const calm = await createWearer(t.db, {
    organizationId: org.id,
    birthDate: '1980-05-01',
    gateway: hot.gateway,
    serialNumber: 'SIM-ALERTS-CALM',
  });
  const gateways = [
    {
      gatewayId: hot.gateway.id,
      credential: hot.gateway.credential,
      site: 'outdoor' as const,
      serialNumbers: [hot, racing, calm].map((w) => w.bracelet.serialNumber),
    },
  ];
  const start = pastWorkingMorning();
  const sim = new Simulation({ seed: 21, start, gateways, eventsPerHour: 0 });
  const sender = new BatchSender(
    createInProcessDriver(t.ctx, org.id),
    new Map([[hot.gateway.id, gateways[0]!]]),
    silentLogger,
  );

  // A calm first hour, then the episodes.
  await runSimulation(sim, sender, {
    mode: 'fast',
    stepMs: 5 * 60_000,
    until: new Date(start.getTime() + 3_600_000),
  });
  sim.trigger('heat-episode', hot.bracelet.serialNumber, 40);
  sim.trigger('high-heart-rate', racing.bracelet.serialNumber, 15);
  const stats = await runSimulation(sim, sender, {
    mode: 'fast',
    stepMs: 5 * 60_000,
    until: new Date(start.getTime() + 2 * 3_600_000),
  });
  expect(stats.rejected).toBe(0);

  const alerts = await t.db.query<{ type: string; wearer_id: string }>(
    'SELECT DISTINCT type, wearer_id FROM alerts WHERE organization_id = $1',
    [org.id],
  );
  const typesOf = (uid: string) => alerts.filter((a) => a.wearer_id === uid).map((a) => a.type);
  expect(typesOf(hot.uid)).toEqual(expect.arrayContaining(['HEATSTROKE']));
  expect(typesOf(hot.uid).some((type) => type.startsWith('ADVANCED_HEATSTROKE'))).toBe(true);
  expect(typesOf(racing.uid)).toContain('HEART_RATE_ANOMALY_SUSTAINED');
  // The whole site got hot (one gateway, one WBGT), but the calm wearer's body did not strain.
  expect(typesOf(calm.uid)).not.toContain('HEART_RATE_ANOMALY_SUSTAINED');
  expect(typesOf(calm.uid).some((type) => type.startsWith('ADVANCED_HEATSTROKE'))).toBe(false);
});
