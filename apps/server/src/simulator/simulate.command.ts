import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ageOn } from '@wearable/domain';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { openDb } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { DEMO_ORGANIZATIONS } from '../db/seed/demo-data.js';
import type { SimulatorDriver } from './drivers/driver.js';
import { createHttpDriver } from './drivers/http.driver.js';
import { createMqttDriver } from './drivers/mqtt.driver.js';
import { SITE_KINDS } from './environment.js';
import { consoleLogger } from './logger.js';
import { BatchSender, runSimulation } from './runner.js';
import { loadScenarioFile, runScenario } from './scenario.js';
import { type SimGateway, Simulation, type SimulationOptions } from './simulation.js';
import { provisionSimulation } from './simulator.repository.js';

export class SimulateUsageError extends Error {}

const USAGE = `Usage: npm run simulate -- [--wearers N] [--gateways M] [--via http|mqtt]
  [--url http://localhost:3000] [--mqtt-url mqtt://localhost:1883] [--seed S]
  [--mode realtime|fast] [--rate readings/s] [--duration s] [--backfill-hours h]
  [--events-per-hour E] [--scenario file.json] [--provision] [--gateways-file file.json]`;

const gatewaysFile = z.array(
  z.object({
    gatewayId: z.string().min(1),
    credential: z.string().min(1),
    serialNumbers: z.array(z.string().min(1)).min(1),
    site: z.enum(SITE_KINDS).optional(),
  }),
);

const positive = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new SimulateUsageError(`--${name} must be a number >= 0, got "${value}"`);
  return n;
};

interface Source {
  gateways: SimGateway[];
  wearers: SimulationOptions['wearers'];
}

/** The demo organisation's deterministic gateways and bracelets, as the seed creates them. */
function demoSource(): Source {
  const demo = DEMO_ORGANIZATIONS.find((o) => o.isDemo);
  if (!demo) throw new SimulateUsageError('no demo organisation in the seed data');
  const now = new Date();
  return {
    gateways: demo.gateways.map((g) => ({
      gatewayId: g.id,
      credential: g.credential,
      serialNumbers: demo.wearers.filter((w) => w.gatewayId === g.id).map((w) => w.serialNumber),
    })),
    wearers: Object.fromEntries(
      demo.wearers.map((w) => [
        w.serialNumber,
        { age: ageOn(w.birthDate, now), dutyCycleMinutes: w.dutyCycle },
      ]),
    ),
  };
}

/** Keeps the first M gateways and N bracelets of a source. */
function limit(source: Source, wearers: number | undefined, gateways: number | undefined): Source {
  let left = wearers ?? Infinity;
  const kept = source.gateways.slice(0, gateways ?? Infinity).map((g) => {
    const serialNumbers = g.serialNumbers.slice(0, Math.max(0, left));
    left -= serialNumbers.length;
    return { ...g, serialNumbers };
  });
  return { ...source, gateways: kept.filter((g) => g.serialNumbers.length > 0) };
}

/**
 * Provisions into the server's database. PGlite's data folder cannot be opened by two
 * processes: refuse while a server answers at --url, and stop after writing the gateways file.
 */
async function provision(
  url: string,
  wearers: number,
  gateways: number,
): Promise<{ source: Source; exit: boolean }> {
  const config = loadConfig();
  const pglite = !config.databaseUrl;
  if (pglite) {
    const running = await fetch(new URL('/healthz', url)).then(
      () => true,
      () => false,
    );
    if (running) {
      throw new SimulateUsageError(
        `A server answers at ${url} on PGlite (${config.dataDir}), whose data folder only one process may open. ` +
          'Stop it, run --provision, start it again and run with --gateways-file.',
      );
    }
  }
  const db = await openDb(config);
  try {
    await migrate(db);
    const result = await provisionSimulation(db, {
      wearers,
      gateways,
      birthYear: (i) => 1962 + ((i * 7) % 44),
    });
    const file = join(pglite ? config.dataDir : '.', `simulation-${result.organizationId}.json`);
    writeFileSync(file, JSON.stringify(result.gateways, null, 2));
    console.log(
      `Provisioned ${result.organizationId}: ${wearers} wearers on ${gateways} gateways; gateways file ${file}`,
    );
    return { source: { gateways: result.gateways, wearers: {} }, exit: pglite };
  } finally {
    await db.close();
  }
}

/** `simulate`: simulated gateways and wearers against a running server. */
export async function simulateCommand(args: string[]): Promise<void> {
  const { values: v } = parseArgs({
    args,
    options: {
      wearers: { type: 'string' },
      gateways: { type: 'string' },
      via: { type: 'string', default: 'http' },
      url: { type: 'string', default: 'http://localhost:3000' },
      'mqtt-url': { type: 'string', default: 'mqtt://localhost:1883' },
      seed: { type: 'string' },
      mode: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      'backfill-hours': { type: 'string' },
      'events-per-hour': { type: 'string' },
      'batch-seconds': { type: 'string' },
      scenario: { type: 'string' },
      provision: { type: 'boolean', default: false },
      'gateways-file': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (v.help) return console.log(USAGE);
  if (v.via !== 'http' && v.via !== 'mqtt')
    throw new SimulateUsageError(`--via must be http or mqtt\n${USAGE}`);
  const mode = v.mode ?? (v.rate ? 'fast' : 'realtime');
  if (mode !== 'realtime' && mode !== 'fast')
    throw new SimulateUsageError(`--mode must be realtime or fast\n${USAGE}`);
  const wearers = v.wearers === undefined ? undefined : positive('wearers', v.wearers, 20);
  const gatewayCount =
    v.gateways === undefined ? undefined : Math.max(1, positive('gateways', v.gateways, 2));
  const log = consoleLogger(v.quiet);

  let source: Source;
  if (v.provision) {
    const provisioned = await provision(v.url, wearers ?? 20, gatewayCount ?? 2);
    if (provisioned.exit) return;
    source = provisioned.source;
  } else if (v['gateways-file']) {
    const parsed = gatewaysFile.safeParse(JSON.parse(readFileSync(v['gateways-file'], 'utf8')));
    if (!parsed.success)
      throw new SimulateUsageError(`--gateways-file: ${parsed.error.issues[0]?.message}`);
    source = limit({ gateways: parsed.data, wearers: {} }, wearers, gatewayCount);
  } else {
    source = limit(demoSource(), wearers, gatewayCount);
  }
  if (source.gateways.length === 0)
    throw new SimulateUsageError('no gateway with bracelets to simulate');

  const driver: SimulatorDriver =
    v.via === 'mqtt' ? createMqttDriver(v['mqtt-url']) : createHttpDriver(v.url);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const started = Date.now();
  try {
    const seed = positive('seed', v.seed, 1);
    const duration = positive('duration', v.duration, mode === 'fast' ? 3600 : 0) * 1000;
    const stats = v.scenario
      ? await playScenario(
          driver,
          v.scenario,
          source.gateways,
          mode === 'realtime',
          controller.signal,
        )
      : await runModel(driver, source, {
          seed,
          mode,
          duration,
          rate: positive('rate', v.rate, 0),
          backfillMs: positive('backfill-hours', v['backfill-hours'], 0) * 3_600_000,
          eventsPerHour: positive('events-per-hour', v['events-per-hour'], 12),
          batchMs: positive('batch-seconds', v['batch-seconds'], 5) * 1000,
          signal: controller.signal,
          log,
        });
    const seconds = (Date.now() - started) / 1000;
    console.log(
      JSON.stringify({
        summary: { ...stats, seconds, readingsPerSecond: Math.round(stats.readings / seconds) },
      }),
    );
    if (stats.failedBatches > 0) process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await driver.close();
  }
}

async function playScenario(
  driver: SimulatorDriver,
  file: string,
  gateways: SimGateway[],
  realtime: boolean,
  signal: AbortSignal,
) {
  const scenario = loadScenarioFile(file);
  const end = Math.max(0, ...scenario.items.map((i) => i.at)) * 1000;
  // Fast: the scenario ends now (all in the past); real time: it starts now.
  const start = new Date(realtime ? Date.now() : Date.now() - end);
  const { results: _results, ...stats } = await runScenario(driver, scenario, {
    start,
    gateways,
    realtime,
    signal,
  });
  return stats;
}

async function runModel(
  driver: SimulatorDriver,
  source: Source,
  o: {
    seed: number;
    mode: 'realtime' | 'fast';
    duration: number;
    rate: number;
    backfillMs: number;
    eventsPerHour: number;
    batchMs: number;
    signal: AbortSignal;
    log: ReturnType<typeof consoleLogger>;
  },
) {
  const now = Date.now();
  const start = new Date(o.mode === 'fast' ? now - o.duration : now - o.backfillMs);
  const sim = new Simulation({
    seed: o.seed,
    start,
    gateways: source.gateways,
    ...(source.wearers ? { wearers: source.wearers } : {}),
    eventsPerHour: o.eventsPerHour,
    onEvent: (event) =>
      o.log.info(
        { simulated: event },
        `simulated ${event.kind} ${event.serialNumber ?? event.gatewayId}`,
      ),
  });
  const sender = new BatchSender(
    driver,
    new Map(source.gateways.map((g) => [g.gatewayId, g])),
    o.log,
  );
  o.log.info(
    {
      mode: o.mode,
      via: driver.name,
      gateways: source.gateways.length,
      wearers: sim.wearers.length,
      from: start.toISOString(),
    },
    'simulation started',
  );
  if (o.mode === 'fast') {
    return runSimulation(sim, sender, {
      mode: 'fast',
      rate: o.rate,
      signal: o.signal,
      stepMs: 60_000,
    });
  }
  return runSimulation(sim, sender, {
    mode: 'realtime',
    batchIntervalMs: o.batchMs,
    signal: o.signal,
    ...(o.duration > 0 ? { stopAt: new Date(now + o.duration) } : {}),
  });
}
