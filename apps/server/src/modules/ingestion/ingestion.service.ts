import type { BatchResult, IncomingGatewayBatch } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { withLaneHint } from '../../db/priority-lane.js';
import type { AuthenticatedGateway } from './gateway-auth.js';
import { shouldTouchGateway } from './ingestion-caches.js';
import { touchGatewayStatement } from './ingestion.repository.js';
import { answer } from './steps/answer.js';
import { evaluate } from './steps/evaluate.js';
import { fold } from './steps/fold.js';
import { parse, type Parsed, type ParsedBatch, parseBatch } from './steps/parse.js';
import { publish } from './steps/publish.js';
import { resolve, type Resolved } from './steps/resolve.js';
import { store } from './steps/store.js';
import { urgentLane } from './steps/urgent-lane.js';
import { testFaultAt } from './test-fault.js';

/** A gateway's credential check and its throttle, for the other ways in (vendor gateways over HTTP and MQTT). */
export {
  type AuthenticatedGateway,
  authenticateGateway,
  parseGatewayAuthorization,
} from './gateway-auth.js';
export { GatewayThrottledError } from './gateway-throttle.js';

/**
 * Ingestion is a pipeline of named steps, each in its own file under steps/, each visited once,
 * for every way in (the native HTTP route, MQTT, phones, the vendor gateways, the simulator):
 *   parse     each item validated once; urgency decided once
 *   resolve   bracelets looked up; each reading converted once into its stored row and engine input
 *   (urgent lane: an SOS or fall opens in its own transaction first, PostgreSQL only)
 *   store     engine state locked with the new items' inserts; only new items go on    ┐ ONE
 *   fold      site heat, latest values, pairings, places; the batch's small writes     │ transaction
 *   evaluate  the engine on exactly the new inputs; alerts, state and writes, COMMIT   ┘
 *   publish   after commit: the in-memory state, then the bus
 *   answer    the gateway's result
 */
export function ingestionService(ctx: AppContext) {
  return {
    ingest: (gateway: AuthenticatedGateway, batch: IncomingGatewayBatch, parsed?: ParsedBatch) =>
      ingestBatch(ctx, gateway, batch, parsed),
    /** Batches being ingested now (queued for the database or running). */
    backlog: (): number => ctx.ingestion.backlog.pending,
  };
}

/**
 * A batch carrying an SOS or a fall: it takes the database's priority lane and is never refused.
 * The item is validated first (and must be of now): a bogus SOS must not skip back-pressure.
 */
export const isUrgentBatch = (batch: IncomingGatewayBatch, now: Date): boolean =>
  parseBatch(batch, now).urgent;

/**
 * Ingests one gateway batch, step by step. `parsed`: the batch already parsed by the caller (the
 * HTTP route, which needs its urgency for back-pressure), so no item is parsed twice.
 */
async function ingestBatch(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  raw: IncomingGatewayBatch,
  parsed?: ParsedBatch,
): Promise<BatchResult> {
  const started = performance.now();
  const startedAt = Date.now();
  const batch = parse(ctx, gateway, raw, parsed);
  const backlog = ctx.ingestion.backlog;
  backlog.pending++;
  try {
    // The bracelet look-up before the transaction takes the same lane as the transaction.
    const result = await withLaneHint({ urgent: batch.parsed.urgent }, () => run(ctx, batch));
    ctx.metrics.batch(
      gateway.type ?? 'unknown',
      batch.parsed.urgent,
      (performance.now() - started) / 1000,
      {
        accepted: result.accepted,
        duplicates: result.duplicates,
        rejected: result.rejected.length,
      },
    );
    ctx.tracing.record('gateway batch', startedAt, {
      'gateway.type': gateway.type ?? 'unknown',
      'batch.urgent': batch.parsed.urgent,
      'batch.accepted': result.accepted,
      'batch.duplicates': result.duplicates,
      'batch.rejected': result.rejected.length,
    });
    // Staff see what was refused on the gateway's page (counted in memory, written every few
    // seconds); a batch with nothing refused pays this one comparison.
    if (result.rejected.length > 0) recordRefusals(ctx, gateway, raw, result.rejected);
    return result;
  } finally {
    backlog.pending--;
  }
}

/** The steps, in order. */
async function run(ctx: AppContext, parsed: Parsed): Promise<BatchResult> {
  const resolved = await resolve(ctx, parsed);
  if (nothingToStore(resolved)) return touchOnly(ctx, resolved);
  const aheadStored = await urgentLane(ctx, resolved);
  const rollups = ctx.rollups.begin();
  let accepted: number;
  try {
    // SOS/FALL batches go ahead of queued batches of other wearers (db/priority-lane.ts).
    const evaluated = await ctx.db.transaction(
      async (tx) => {
        const stored = await store(ctx, tx, { ...resolved, aheadStored, rollups });
        return evaluate(ctx, tx, await fold(ctx, tx, stored));
      },
      { urgent: resolved.parsed.urgent, keys: resolved.items.wearerIds },
    );
    if (resolved.parsed.urgent) await testFaultAt(ctx, 'batch-committed');
    publish(ctx, evaluated);
    accepted = evaluated.accepted;
  } finally {
    rollups.done();
  }
  // ROLLUP_FLUSH_MS=0: written before the answer (a failure is retried by the next flush).
  if (ctx.rollups.immediate) await rollups.flushNow();
  return answer(ctx, ctx.db, { ...parsed, accepted });
}

/** A batch whose valid items resolved to nothing to store (no reading, event, environment, position, sync or status). */
const nothingToStore = ({ parsed, items }: Resolved): boolean =>
  parsed.status === null &&
  items.readings.length === 0 &&
  items.events.length === 0 &&
  items.unassigned.length === 0 &&
  items.environment.length === 0 &&
  items.positions.length === 0 &&
  items.sync.pairings.length === 0 &&
  items.sync.acks.length === 0;

/**
 * Every item refused, or a vendor request whose presence waits for its window: no transaction
 * (it would write nothing); the gateway's last-seen time still moves as in any batch.
 */
async function touchOnly(ctx: AppContext, batch: Resolved): Promise<BatchResult> {
  const { gateway, now } = batch;
  if (shouldTouchGateway(ctx, gateway.id, now)) {
    const touch = touchGatewayStatement(gateway.id, now);
    await ctx.db.query(touch.text, touch.params);
  }
  return answer(ctx, ctx.db, { ...batch, accepted: 0 });
}

function recordRefusals(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  batch: IncomingGatewayBatch,
  rejected: BatchResult['rejected'],
): void {
  ctx.gatewayRefusals.add(
    gateway,
    rejected.map((r) => ({
      list: r.list,
      reason: r.reason,
      raw: r.list === 'status' ? batch.status : batch[r.list]?.[r.index],
    })),
  );
}
