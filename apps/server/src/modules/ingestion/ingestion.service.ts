import type { BatchResult, IncomingGatewayBatch } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { withLaneHint } from '../../db/priority-lane.js';
import {
  type EngineOutcome,
  lockWearers,
  publishOutcome,
  runEngine,
  type WearerInputs,
} from '../../engine/runner.js';
import type { EngineInput } from '../../engine/types.js';
import {
  openUrgentAlerts,
  publishUrgentAlerts,
  type UrgentEvent,
} from '../../engine/urgent-open.js';
import { type BatchFold, type LatestInput, readingsService } from '../readings/readings.service.js';
import { type SiteHeatStep, siteHeatService } from '../site-heat/site-heat.service.js';
import { pendingConfigOf, syncBracelets } from './bracelet-sync.js';
import type { AuthenticatedGateway } from './gateway-auth.js';

/** A gateway's credential check and its throttle, for the other ways in (vendor gateways over HTTP and MQTT). */
export {
  type AuthenticatedGateway,
  authenticateGateway,
  parseGatewayAuthorization,
} from './gateway-auth.js';
export { GatewayThrottledError } from './gateway-throttle.js';
import { braceletsOf, shouldTouchGateway } from './ingestion-caches.js';
import {
  ingestionRepository,
  touchGatewayStatement,
  updateBatteriesStatement,
} from './ingestion.repository.js';
import { webhookOutboxService } from '../webhooks/webhook-outbox.service.js';
import { foldBatchPlaces } from '../places/places.service.js';
import { type ParsedBatch, parseBatch } from './parse-batch.js';
import { type ResolvedBatch, type ResolvedEvent, resolveBatch } from './resolve-batch.js';

/**
 * Ingestion is a pipeline of named steps (HTTP, MQTT and the simulator alike):
 *   parseBatch (parse-batch.ts)     each item validated once; urgency decided once
 *   resolveBatch (resolve-batch.ts) bracelets looked up; each reading converted once into its
 *                                   stored row and its engine input
 *   storeItems                      new readings, events and environment stored once
 *   foldAndWrite                    latest values folded, the batch's small writes gathered
 *   runEngine (engine/runner.ts)    the engine on exactly the new inputs; state, alerts and the
 *                                   gathered writes in one round trip
 *   afterCommit, answer             bus events after commit; the gateway's result
 * Everything from storeItems to runEngine is ONE transaction: the answer comes after its commit.
 */

/**
 * Ingestion for every way in: the HTTP route, MQTT, the vendor gateways and the simulator. Made once
 * per caller (a route plugin, a driver); the backlog it counts is the app's (`ctx.ingestion`).
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
 * Ingests one gateway batch: validates item by item, stores the new items once, runs the engine
 * on exactly the new inputs and writes alerts and engine state, all in ONE transaction. Bus events
 * leave after commit. `parsed`: the batch already parsed by the caller (the HTTP route, which
 * needs its urgency for back-pressure), so no item is parsed twice.
 */
async function ingestBatch(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  batch: IncomingGatewayBatch,
  parsed: ParsedBatch = parseBatch(batch, ctx.now()),
): Promise<BatchResult> {
  const backlog = ctx.ingestion.backlog;
  backlog.pending++;
  try {
    // The bracelet look-up before the transaction takes the same lane as the transaction.
    return await withLaneHint({ urgent: parsed.urgent }, () => ingestParsed(ctx, gateway, parsed));
  } finally {
    backlog.pending--;
  }
}

async function ingestParsed(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  parsed: ParsedBatch,
): Promise<BatchResult> {
  const now = ctx.now();
  const bracelets = await braceletsOf(ctx, gateway.organizationId, parsed.serials);
  const batch = resolveBatch(parsed, bracelets, gateway);
  if (nothingToStore(parsed, batch)) {
    // Every item refused, or a vendor request whose presence waits for its window: no transaction
    // (it would write nothing); the gateway's last-seen time still moves as in any batch.
    if (shouldTouchGateway(ctx, gateway.id, now)) {
      const touch = touchGatewayStatement(gateway.id, now);
      await ctx.db.query(touch.text, touch.params);
    }
    return answer(ctx, gateway, parsed, 0);
  }
  // An SOS or a fall opens first, not after the engine's turn, which may wait for the lock a batch
  // of readings holds (engine/urgent-open.ts).
  if (parsed.urgent && ctx.db.kind === 'postgres') await openUrgentFirst(ctx, gateway, batch);
  // Rollups and latest values are folded in memory and written by the next flush
  // (rollup-folder.ts); the transaction records what it leaves to that flush.
  const fold = ctx.rollups.begin();
  let stored: Stored;
  try {
    // SOS/FALL batches go ahead of queued batches of other wearers (db/priority-lane.ts).
    stored = await ctx.db.transaction(
      (tx) => storeAndEvaluate(ctx, tx, gateway, batch, parsed.status, fold, now),
      { urgent: parsed.urgent, keys: batch.wearerIds },
    );
    afterCommit(ctx, gateway, stored, fold);
    // Acknowledged configuration is no longer pending: the answer below reads it again.
    if (batch.sync.acks.length > 0) ctx.ingestion.pendingConfig.delete(gateway.id);
  } finally {
    fold.done();
  }
  // ROLLUP_FLUSH_MS=0: written before the answer (a failure is retried by the next flush).
  if (ctx.rollups.immediate) await fold.flushNow();
  return answer(ctx, gateway, parsed, stored.accepted);
}

/** A batch whose valid items resolved to nothing to store (no reading, event, environment, position, sync or status). */
const nothingToStore = (parsed: ParsedBatch, batch: ResolvedBatch): boolean =>
  parsed.status === null &&
  batch.readings.length === 0 &&
  batch.events.length === 0 &&
  batch.environment.length === 0 &&
  batch.positions.length === 0 &&
  batch.sync.pairings.length === 0 &&
  batch.sync.acks.length === 0;

interface Stored {
  outcome: EngineOutcome;
  siteHeat: SiteHeatStep['events'];
  accepted: number;
  updatedWearers: string[];
  /** The wearers whose stored place the batch wrote. */
  placesWritten: string[];
}

/** The transaction: store, fold, run the engine. Returns what goes out after commit. */
async function storeAndEvaluate(
  ctx: AppContext,
  tx: Queryable,
  gateway: AuthenticatedGateway,
  batch: ResolvedBatch,
  status: ParsedBatch['status'],
  fold: BatchFold,
  now: Date,
): Promise<Stored> {
  // Engine state rows first, in wearer order: batches of the same wearers take turns here. The
  // items' inserts and, with environment readings, the site's heat state lock are sent with it
  // (one turn, pipelined on PostgreSQL): the database runs them in this order, so the lock order
  // is as it was (wearers, then the site).
  const [locked, fresh, siteHeatState] = await Promise.all([
    lockWearers(ctx, tx, batch.wearerIds),
    storeItems(ctx, tx, gateway, batch),
    batch.environment.length > 0 ? siteHeatService(ctx).lock(tx, gateway) : undefined,
  ]);
  // The gateway's own status, kept when newer than the stored one (a re-sent one is a duplicate).
  const statusNew =
    status !== null &&
    (await ingestionRepository(tx).storeGatewayStatus(gateway.id, {
      ...status.item,
      at: status.at,
    }));
  // The site's heat level steps over the new WBGT only (a batch without any pays nothing).
  const siteHeat = await siteHeatService(ctx).step(tx, gateway, fresh.environment, siteHeatState);
  const writes = await foldAndWrite(ctx, tx, gateway, batch, fresh, fold, now);
  // Where each wearer is now (the map's source, and the place an alert opening now stores): every
  // sighting of the batch folded into the stored state, a reading another gateway delivered first
  // included (this gateway heard the bracelet too, with its own signal strength).
  const places = foldBatchPlaces(locked.places, batchSightings(gateway, batch));
  // The engine's state save carries the batch's other writes (one round trip).
  const outcome = await runEngine(
    ctx,
    tx,
    locked,
    engineInputs(fresh),
    [...writes.statements, siteHeat.save, places.save],
    places.folded,
    // Nothing follows: COMMIT goes with the save.
    true,
  );
  return {
    outcome,
    siteHeat: siteHeat.events,
    accepted:
      fresh.environment.length +
      fresh.events.length +
      fresh.readings.length +
      batch.sync.pairings.length +
      batch.sync.acks.length +
      (statusNew ? 1 : 0),
    // A place written is announced too: a reading another gateway delivered first is not fresh
    // here, yet this gateway's hearing of it may move the wearer on the map.
    updatedWearers: [...new Set([...writes.latestWearers, ...fresh.wearers, ...places.written])],
    placesWritten: places.written,
  };
}

/** Every sighting and phone position of the batch, for the place fold (places.service.ts). */
const batchSightings = (gateway: AuthenticatedGateway, batch: ResolvedBatch) => ({
  organizationId: gateway.organizationId,
  gatewayId: gateway.id,
  sightings: [
    ...batch.readings.map((r) => ({ wearerId: r.row.wearerId, at: r.row.at, rssi: r.row.rssi })),
    ...batch.events.map((e) => ({ wearerId: e.wearerId, at: e.at, rssi: null })),
  ],
  positions: batch.positions,
});

/**
 * The batch's SOS and falls, opened in their own urgent transaction before the batch's (see
 * engine/urgent-open.ts). If it fails the batch goes on: the engine's turn opens them as before.
 */
async function openUrgentFirst(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  batch: ResolvedBatch,
): Promise<void> {
  // Only wearers this server has run the engine for (a worn bracelet): a bracelet's first batch
  // has no state to step yet, and would pay two reads for nothing.
  const events: UrgentEvent[] = batch.events
    .filter((e) => (e.type === 'SOS' || e.type === 'FALL') && ctx.engine.cache.has(e.wearerId))
    .map((e) => ({ wearerId: e.wearerId, braceletId: e.braceletId, input: eventInput(e) }));
  if (events.length === 0) return;
  const sightings = batchSightings(gateway, batch);
  const placeOf = (wearerId: string, stored: { state: unknown; position: unknown } | undefined) =>
    foldBatchPlaces(stored ? new Map([[wearerId, stored]]) : new Map(), {
      ...sightings,
      sightings: sightings.sightings.filter((s) => s.wearerId === wearerId),
      positions: sightings.positions.filter((p) => p.wearerId === wearerId),
    }).folded.get(wearerId);
  try {
    const opened = await ctx.db.transaction((tx) => openUrgentAlerts(ctx, tx, events, placeOf), {
      urgent: true,
      keys: [...new Set(events.map((e) => e.wearerId))],
    });
    publishUrgentAlerts(ctx, opened);
  } catch (err) {
    ctx.log.error({ err }, 'opening an SOS or fall ahead of its batch failed');
  }
}

/** A device event as the engine's input. */
const eventInput = (e: ResolvedEvent): Extract<EngineInput, { kind: 'event' }> => ({
  kind: 'event',
  at: e.at,
  type: e.type,
  ...(e.cause ? { cause: e.cause } : {}),
});

/** What the batch stored now (a redelivered item is not in it). */
interface Fresh {
  readings: ResolvedBatch['readings'];
  events: ResolvedEvent[];
  environment: {
    at: Date;
    temperature: number | null;
    humidity: number | null;
    wbgt: number | null;
  }[];
  /** Wearers with a new reading or event. */
  wearers: Set<string>;
}

/** Stores the batch's items once; only the new ones go on (a redelivered batch changes nothing). */
async function storeItems(
  ctx: AppContext,
  tx: Queryable,
  gateway: AuthenticatedGateway,
  batch: ResolvedBatch,
): Promise<Fresh> {
  const store = readingsService(ctx).store(tx);
  // Sent together (pipelined on PostgreSQL), answered in order.
  const [eventsNew, , { readings: stored, environmentNew }] = await Promise.all([
    ingestionRepository(tx).insertEvents(gateway.organizationId, gateway.id, batch.events),
    store.insertPositions(gateway.organizationId, gateway.id, batch.positions),
    store.insertReadings(
      gateway.organizationId,
      gateway.id,
      batch.readings.map((r) => r.row),
      batch.environment,
    ),
  ]);
  const newReadings = new Map(stored.map((r) => [`${r.braceletId}|${r.at.getTime()}`, r.wbgt]));
  const readings = batch.readings.filter((r) => {
    if (!newReadings.has(r.key)) return false;
    const wbgt = newReadings.get(r.key) ?? null;
    r.row.wbgt = wbgt;
    if (wbgt !== null && r.input.kind === 'reading') r.input.wbgt = wbgt;
    return true;
  });
  const newEvents = new Set(eventsNew.map((e) => `${e.braceletId}|${e.at.getTime()}|${e.type}`));
  const events = batch.events.filter((e) => newEvents.has(e.key));
  const wearers = new Set<string>();
  for (const r of readings) wearers.add(r.row.wearerId);
  for (const e of events) wearers.add(e.wearerId);
  return { readings, events, environment: environmentNew, wearers };
}

/**
 * Folds the new items into the latest values (written by the flush), completes pairings, and
 * gathers the batch's small writes (rollup marks, the gateway's last-seen time, changed battery
 * levels) for the engine's round trip.
 */
async function foldAndWrite(
  ctx: AppContext,
  tx: Queryable,
  gateway: AuthenticatedGateway,
  batch: ResolvedBatch,
  fresh: Fresh,
  fold: BatchFold,
  now: Date,
) {
  const latest: LatestInput[] = fresh.readings.map((r) => r.row);
  for (const e of fresh.events) {
    if (e.type !== 'WORN' && e.type !== 'REMOVED') continue;
    latest.push({
      kind: 'event',
      wearerId: e.wearerId,
      braceletId: e.braceletId,
      timeZone: e.bracelet.timeZone,
      at: e.at,
      worn: e.type === 'WORN',
    });
  }
  const marks = fold.prepare(latest, gateway.organizationId);
  const paired = await syncBracelets(tx, gateway.id, batch.reported, batch.sync.acks, now);
  // Webhooks: bracelet.paired, in this transaction (webhook-outbox.ts).
  await webhookOutboxService(ctx).enqueueBraceletsPaired(tx, gateway.organizationId, paired, now);
  return {
    statements: [
      marks,
      shouldTouchGateway(ctx, gateway.id, now) ? touchGatewayStatement(gateway.id, now) : null,
      updateBatteriesStatement(batteryChanges(fresh.readings)),
    ],
    latestWearers: latest.map((u) => u.wearerId),
  };
}

/**
 * The newest battery level of each bracelet among the new readings, where it differs from the
 * cached bracelet row; the cached rows learn it, so the next batch does not write it again.
 */
function batteryChanges(readings: Fresh['readings']): { braceletId: string; battery: number }[] {
  const newest = new Map<
    string,
    { at: number; battery: number; bracelet: { battery: number | null } }
  >();
  for (const r of readings) {
    if (r.row.battery === null) continue;
    const at = r.row.at.getTime();
    const seen = newest.get(r.row.braceletId);
    if (!seen || at >= seen.at)
      newest.set(r.row.braceletId, { at, battery: r.row.battery, bracelet: r.bracelet });
  }
  const changes: { braceletId: string; battery: number }[] = [];
  for (const [braceletId, b] of newest) {
    if (b.bracelet.battery === b.battery) continue;
    changes.push({ braceletId, battery: b.battery });
    b.bracelet.battery = b.battery;
  }
  return changes;
}

/** The engine's inputs per wearer: the new readings and events. */
function engineInputs(fresh: Fresh): WearerInputs[] {
  const inputs = new Map<string, EngineInput[]>();
  const add = (wearerId: string, input: EngineInput) => {
    const list = inputs.get(wearerId);
    if (list) list.push(input);
    else inputs.set(wearerId, [input]);
  };
  for (const r of fresh.readings) add(r.row.wearerId, r.input);
  for (const e of fresh.events) add(e.wearerId, eventInput(e));
  return [...inputs].map(([wearerId, list]) => ({ wearerId, inputs: list }));
}

/**
 * After commit: screens learn of new latest values when the flush wrote them (a place written too);
 * alerts go out now.
 */
function afterCommit(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  stored: Stored,
  fold: BatchFold,
): void {
  // This server's map has the new places at once (other servers' with the flush's announcement).
  ctx.placeSnapshots.changed(gateway.organizationId, stored.placesWritten);
  fold.committed(
    stored.updatedWearers.flatMap((wearerId) => {
      const p = stored.outcome.profiles.get(wearerId);
      return p ? [{ organizationId: p.organizationId, groupId: p.groupId, wearerId }] : [];
    }),
  );
  publishOutcome(ctx, stored.outcome, []);
  siteHeatService(ctx).publish(stored.siteHeat);
}

/** The gateway's result: counts, refusals in batch order, and configuration it should apply. */
async function answer(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  parsed: ParsedBatch,
  accepted: number,
): Promise<BatchResult> {
  const pendingConfig = await pendingConfigOf(ctx, gateway.id);
  const rejected = parsed.rejected;
  const valid = parsed.itemCount - rejected.length;
  rejected.sort((a, b) => (a.list === b.list ? a.index - b.index : a.list < b.list ? -1 : 1));
  // A phone follows its organisation's man-down setting: each result tells it (from a 30 s cache,
  // which a policy change on this server clears), so no extra request or polling is needed.
  const gatewaySettings =
    gateway.type === 'SMARTPHONE'
      ? {
          manDownMinutes: (await siteHeatService(ctx).policy(ctx.db, gateway.organizationId)).policy
            .manDownMinutes,
        }
      : null;
  return {
    ...(parsed.batchId !== undefined ? { batchId: parsed.batchId } : {}),
    accepted,
    duplicates: valid - accepted,
    rejected,
    ...(parsed.warnings.length ? { warnings: parsed.warnings } : {}),
    ...(pendingConfig.length ? { pendingConfig } : {}),
    ...(gatewaySettings ? { gatewaySettings } : {}),
  };
}
