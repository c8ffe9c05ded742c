import type { BatchResult } from '@wearable/domain';
import { READING_LIMITS } from '@wearable/domain';
import {
  DriverError,
  splitBatch,
  type GatewayCredentials,
  type SimulatorDriver,
} from './drivers/driver.js';
import type { SimLogger } from './logger.js';
import type { OutboundBatch, Simulation } from './simulation.js';

/** What a run delivered, for the CLI's summary and the benchmarks. */
export interface RunStats {
  batches: number;
  readings: number;
  environment: number;
  events: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  failedBatches: number;
}

export const emptyStats = (): RunStats => ({
  batches: 0,
  readings: 0,
  environment: 0,
  events: 0,
  accepted: 0,
  duplicates: 0,
  rejected: 0,
  failedBatches: 0,
});

/** Sends batches through a driver, honouring each BatchResult (rejections are logged). */
export class BatchSender {
  readonly stats = emptyStats();
  constructor(
    private readonly driver: SimulatorDriver,
    private readonly gateways: Map<string, GatewayCredentials>,
    private readonly log: SimLogger,
  ) {}

  /** Sends every gateway's batch, gateways in parallel, pieces of one gateway in order. */
  async sendAll(batches: OutboundBatch[]): Promise<BatchResult[]> {
    const results = await Promise.all(batches.map((b) => this.sendOne(b)));
    return results.flat();
  }

  private async sendOne(batch: OutboundBatch): Promise<BatchResult[]> {
    const gateway = this.gateways.get(batch.gatewayId);
    if (!gateway) throw new Error(`no credentials for gateway ${batch.gatewayId}`);
    const results: BatchResult[] = [];
    for (const piece of splitBatch(batch)) {
      const s = this.stats;
      s.batches++;
      s.readings += piece.readings.length;
      s.environment += piece.environment.length;
      s.events += piece.events.length;
      try {
        const result = await this.driver.send(gateway, piece);
        s.accepted += result.accepted;
        s.duplicates += result.duplicates;
        s.rejected += result.rejected.length;
        if (result.rejected.length > 0) {
          this.log.warn(
            {
              gatewayId: batch.gatewayId,
              rejected: result.rejected.length,
              first: result.rejected.slice(0, 5).map((r) => ({
                ...r,
                serialNumber:
                  r.list === 'readings' || r.list === 'events'
                    ? piece[r.list][r.index]?.serialNumber
                    : undefined,
              })),
            },
            'simulator: server rejected items',
          );
        }
        results.push(result);
      } catch (err) {
        s.failedBatches++;
        this.log.error(
          {
            gatewayId: batch.gatewayId,
            err: (err as Error).message,
            retryable: err instanceof DriverError && err.retryable,
          },
          'simulator: batch not delivered',
        );
      }
    }
    return results;
  }
}

export interface RunOptions {
  /** realtime: items leave when their time comes on the wall clock; fast: a virtual clock. */
  mode: 'realtime' | 'fast';
  /** Wall clock (realtime) and the server-time guard (fast). */
  now?: () => Date;
  /** realtime: how often each gateway's collected items are sent. Default 5 s. */
  batchIntervalMs?: number;
  /** fast: virtual time covered by one batch per gateway. Default 60 s. */
  stepMs?: number;
  /** fast: where the virtual clock stops (at most now + the protocol's future tolerance). */
  until?: Date;
  /** realtime: stop at this wall-clock time. */
  stopAt?: Date;
  /** fast: cap on readings per second sent (0 or undefined: as fast as the server takes them). */
  rate?: number;
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Drives a simulation through a sender until `until`/`stopAt` or the signal aborts. */
export async function runSimulation(
  sim: Simulation,
  sender: BatchSender,
  opts: RunOptions,
): Promise<RunStats> {
  const now = opts.now ?? (() => new Date());
  if (opts.mode === 'realtime') {
    const interval = opts.batchIntervalMs ?? 5000;
    while (!opts.signal?.aborted) {
      const t = now();
      await sender.sendAll(sim.advanceTo(t));
      if (opts.stopAt && t >= opts.stopAt) break;
      await sleep(interval - (now().getTime() - t.getTime()), opts.signal);
    }
    return sender.stats;
  }
  const step = opts.stepMs ?? 60_000;
  const limit = now().getTime() + READING_LIMITS.futureToleranceMs - 60_000;
  const until = Math.min(opts.until?.getTime() ?? now().getTime(), limit);
  const started = Date.now();
  let t = sim.cursor.getTime();
  while (t < until && !opts.signal?.aborted) {
    t = Math.min(until, t + step);
    await sender.sendAll(sim.advanceTo(new Date(t)));
    if (opts.rate && opts.rate > 0) {
      // Throttle: never ahead of rate x elapsed readings.
      const due = (sender.stats.readings / opts.rate) * 1000 - (Date.now() - started);
      if (due > 0) await sleep(due, opts.signal);
    }
  }
  return sender.stats;
}
