import { parseArgs } from 'node:util';
import type { SimulatorDriver } from './drivers/driver.js';
import { createHttpDriver } from './drivers/http.driver.js';
import { createMqttDriver } from './drivers/mqtt.driver.js';
import { consoleLogger } from './logger.js';
import { BatchSender, runSimulation } from './runner.js';
import { loadScenarioFile, runScenario } from './scenario.js';
import { type SimGateway, Simulation } from './simulation.js';
import {
  demoSource,
  limit,
  provision,
  readGatewaysFile,
  SimulateUsageError,
  type Source,
} from './simulate-sources.js';

export { SimulateUsageError } from './simulate-sources.js';

const USAGE = `Usage: npm run simulate -- [--wearers N] [--gateways M] [--via http|mqtt]
  [--url http://localhost:3000] [--mqtt-url mqtt://localhost:1883] [--seed S]
  [--mode realtime|fast] [--rate readings/s] [--duration s] [--backfill-hours h]
  [--events-per-hour E] [--scenario file.json] [--provision] [--gateways-file file.json]`;

const positive = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new SimulateUsageError(`--${name} must be a number >= 0, got "${value}"`);
  return n;
};

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
    source = limit(
      { gateways: readGatewaysFile(v['gateways-file']), wearers: {} },
      wearers,
      gatewayCount,
    );
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
