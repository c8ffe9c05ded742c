import { readFileSync } from 'node:fs';
import {
  type BatchResult,
  braceletReading,
  DEVICE_EVENT_TYPES,
  environmentReading,
  READING_LIMITS,
} from '@wearable/domain';
import { z } from 'zod';
import type { GatewayCredentials, SimulatorDriver } from './drivers/driver.js';
import { silentLogger, type SimLogger } from './logger.js';
import { BatchSender, type RunStats } from './runner.js';
import type { OutboundBatch, SimGateway } from './simulation.js';

/**
 * A scripted scenario: timed items that drive tests and demos deterministically. `at` is the
 * offset in seconds from the scenario's start. Values are sent as written, so a scenario may
 * also hold bad values to check that the server refuses them.
 */
const offset = z.number().min(0);
const readingValues = braceletReading.omit({ serialNumber: true, at: true }).loose();
const scenarioItem = z.discriminatedUnion('kind', [
  z.object({
    at: offset,
    kind: z.literal('reading'),
    serialNumber: z.string().min(1),
    values: readingValues,
  }),
  z.object({
    at: offset,
    kind: z.literal('event'),
    serialNumber: z.string().min(1),
    values: z.object({ type: z.enum(DEVICE_EVENT_TYPES) }),
  }),
  z.object({
    at: offset,
    kind: z.literal('environment'),
    /** The gateway, named directly or through one of its bracelets. */
    gatewayId: z.string().min(1).optional(),
    serialNumber: z.string().min(1).optional(),
    values: environmentReading.omit({ at: true }).loose(),
  }),
]);
export const scenarioSchema = z.object({
  name: z.string().optional(),
  items: z.array(scenarioItem),
});
export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioItem = z.infer<typeof scenarioItem>;

export function loadScenarioFile(path: string): Scenario {
  return scenarioSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

export interface ScenarioOptions {
  /** The wall-clock time offset 0 stands for. */
  start: Date;
  /** Which gateway each bracelet reports through, with its credentials. */
  gateways: SimGateway[];
  /** Items of one gateway within this many seconds of scenario time go in one batch. Default 60. */
  batchSeconds?: number;
  /** Wait for each batch's time on the wall clock instead of sending at once. */
  realtime?: boolean;
  now?: () => Date;
  log?: SimLogger;
  signal?: AbortSignal;
}

export interface ScenarioResult extends RunStats {
  results: BatchResult[];
}

/**
 * Plays a scenario through a driver (HTTP, MQTT, in-process) and returns what the server said.
 * Refuses, before sending anything, a scenario that would put an item more than the protocol's
 * tolerance ahead of the clock.
 */
export async function runScenario(
  driver: SimulatorDriver,
  input: Scenario,
  opts: ScenarioOptions,
): Promise<ScenarioResult> {
  const scenario = scenarioSchema.parse(input);
  const now = opts.now ?? (() => new Date());
  const gatewayOf = new Map<string, SimGateway>();
  for (const g of opts.gateways) for (const serial of g.serialNumbers) gatewayOf.set(serial, g);
  const byId = new Map(opts.gateways.map((g) => [g.gatewayId, g]));

  const batchMs = (opts.batchSeconds ?? 60) * 1000;
  const windows = new Map<number, Map<string, OutboundBatch>>();
  const items = [...scenario.items].sort((a, b) => a.at - b.at);
  const last = items.at(-1);
  if (
    !opts.realtime &&
    last &&
    opts.start.getTime() + last.at * 1000 > now().getTime() + READING_LIMITS.futureToleranceMs
  ) {
    throw new Error(
      `scenario ends ${last.at} s after its start, more than 5 minutes ahead of now: start it earlier or play it in real time`,
    );
  }
  for (const item of items) {
    const namedGateway = item.kind === 'environment' ? item.gatewayId : undefined;
    const gateway = namedGateway ? byId.get(namedGateway) : gatewayOf.get(item.serialNumber ?? '');
    if (!gateway) {
      throw new Error(
        `scenario item at ${item.at} s: no gateway for ${item.serialNumber ?? namedGateway}`,
      );
    }
    const window = Math.floor((item.at * 1000) / batchMs);
    let batches = windows.get(window);
    if (!batches) windows.set(window, (batches = new Map<string, OutboundBatch>()));
    let batch = batches.get(gateway.gatewayId);
    if (!batch) {
      batch = { gatewayId: gateway.gatewayId, readings: [], environment: [], events: [] };
      batches.set(gateway.gatewayId, batch);
    }
    const at = new Date(opts.start.getTime() + item.at * 1000).toISOString();
    if (item.kind === 'reading')
      batch.readings.push({ ...item.values, serialNumber: item.serialNumber, at });
    else if (item.kind === 'event')
      batch.events.push({ serialNumber: item.serialNumber, type: item.values.type, at });
    else batch.environment.push({ ...item.values, at });
  }

  const credentials = new Map<string, GatewayCredentials>(
    opts.gateways.map((g) => [g.gatewayId, g]),
  );
  const sender = new BatchSender(driver, credentials, opts.log ?? silentLogger);
  const results: BatchResult[] = [];
  for (const window of [...windows.keys()].sort((a, b) => a - b)) {
    if (opts.signal?.aborted) break;
    if (opts.realtime) {
      // The window's items are all measured by its end: send then.
      const due = opts.start.getTime() + (window + 1) * batchMs - now().getTime();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
    }
    results.push(...(await sender.sendAll([...windows.get(window)!.values()])));
  }
  return { ...sender.stats, results };
}
