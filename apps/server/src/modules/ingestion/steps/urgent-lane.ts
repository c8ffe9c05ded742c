import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import {
  alertLifecycleService,
  type UrgentEvent,
  type UrgentOutcome,
} from '../../alerts/alert-lifecycle.service.js';
import { foldBatchPlaces } from '../../places/places.service.js';
import { ingestionRepository } from '../ingestion.repository.js';
import { testFaultAt } from '../test-fault.js';
import { batchSightings, eventInput } from './batch.js';
import type { Resolved, ResolvedEvent } from './resolve.js';

/** No event was stored ahead of the batch (no urgent lane, or it opened nothing). */
export const NONE_STORED: ReadonlySet<string> = new Set();

/**
 * Between "resolve" and "store", for a batch carrying an SOS or a fall, on PostgreSQL only: the
 * batch's SOS and falls open in their own urgent transaction before the batch's, not after the
 * engine's turn, which may wait for the lock a batch of readings holds (modules/alerts/urgent-open.ts).
 * If it fails the batch goes on: the engine's turn opens them as before. Returns the keys of the
 * events it stored with their alert ("store" counts them accepted, "evaluate" does not step them).
 */
export async function urgentLane(ctx: AppContext, batch: Resolved): Promise<ReadonlySet<string>> {
  if (!batch.parsed.urgent || ctx.db.kind !== 'postgres') return NONE_STORED;
  const { gateway, items } = batch;
  // Only wearers this server has run the engine for (a worn bracelet): a bracelet's first batch
  // has no state to step yet, and would pay two reads for nothing.
  const resolved = new Map<UrgentEvent, ResolvedEvent>();
  for (const e of items.events) {
    if ((e.type !== 'SOS' && e.type !== 'FALL') || !ctx.engine.cache.has(e.wearerId)) continue;
    resolved.set({ wearerId: e.wearerId, braceletId: e.braceletId, input: eventInput(e) }, e);
  }
  const events = [...resolved.keys()];
  if (events.length === 0) return NONE_STORED;
  const storeEvents = (tx: Queryable, stored: UrgentEvent[]) =>
    ingestionRepository(tx).insertEvents(
      gateway.organizationId,
      gateway.id,
      stored.map((u) => resolved.get(u)!),
    );
  const sightings = batchSightings(gateway, items);
  const placeOf = (wearerId: string, stored: { state: unknown; position: unknown } | undefined) =>
    foldBatchPlaces(stored ? new Map([[wearerId, stored]]) : new Map(), {
      ...sightings,
      sightings: sightings.sightings.filter((s) => s.wearerId === wearerId),
      positions: sightings.positions.filter((p) => p.wearerId === wearerId),
    }).folded.get(wearerId);
  const lifecycle = alertLifecycleService(ctx);
  let ahead: UrgentOutcome;
  try {
    ahead = await ctx.db.transaction(
      (tx) => lifecycle.openUrgent(tx, events, placeOf, storeEvents),
      { urgent: true, keys: [...new Set(events.map((e) => e.wearerId))] },
    );
  } catch (err) {
    ctx.log.error({ err }, 'opening an SOS or fall ahead of its batch failed');
    return NONE_STORED;
  }
  if (ahead.opened.length) await testFaultAt(ctx, 'urgent-committed');
  lifecycle.publishUrgent(ahead.opened);
  return new Set(ahead.stored.map((u) => resolved.get(u)!.key));
}
