import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import type { Statement } from '../../../db/statement.js';
import { type FoldedPlace, foldBatchPlaces } from '../../places/places.service.js';
import type { LatestInput } from '../../readings/readings.service.js';
import { type SiteHeatStep, siteHeatService } from '../../site-heat/site-heat.service.js';
import { webhookOutboxService } from '../../webhooks/webhook-outbox.service.js';
import { syncBracelets } from '../bracelet-sync.js';
import { shouldTouchGateway } from '../ingestion-caches.js';
import { touchGatewayStatement, updateBatteriesStatement } from '../ingestion.repository.js';
import { batchSightings } from './batch.js';
import type { Fresh, Stored } from './store.js';

/** After "fold": the batch's small writes gathered for the engine's round trip, and where each wearer is. */
export interface Folded extends Stored {
  /** The site's heat events, published after commit. */
  siteHeat: SiteHeatStep['events'];
  /** Written with the engine's state save (one round trip): rollup marks, last-seen, batteries, site heat, places. */
  writes: (Statement | null)[];
  /** Each wearer's place after the batch's sightings (an alert opening now stores it). */
  places: ReadonlyMap<string, FoldedPlace>;
  /** Wearers whose latest values, readings, events or place the batch changed. */
  updatedWearers: string[];
  /** The wearers whose stored place the batch wrote. */
  placesWritten: string[];
}

/**
 * Step "fold", in the batch's transaction: the site's heat level steps over the new WBGT only (a
 * batch without any pays nothing); the new items fold into the latest values (written by the
 * rollups' flush); pairings complete; and every sighting of the batch folds into each wearer's
 * place (the map's source, and the place an alert opening now stores), a reading another gateway
 * delivered first included (this gateway heard the bracelet too, with its own signal strength).
 */
export async function fold(ctx: AppContext, tx: Queryable, batch: Stored): Promise<Folded> {
  const { gateway, items, fresh, now } = batch;
  const siteHeat = await siteHeatService(ctx).step(
    tx,
    gateway,
    fresh.environment,
    batch.siteHeatState,
  );
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
  const marks = batch.rollups.prepare(latest, gateway.organizationId);
  const paired = await syncBracelets(tx, gateway.id, items.reported, items.sync.acks, now);
  // Webhooks: bracelet.paired, in this transaction (webhook-outbox.ts).
  await webhookOutboxService(ctx).enqueueBraceletsPaired(tx, gateway.organizationId, paired, now);
  const places = foldBatchPlaces(batch.locked.places, batchSightings(gateway, items));
  return {
    ...batch,
    siteHeat: siteHeat.events,
    writes: [
      marks,
      shouldTouchGateway(ctx, gateway.id, now) ? touchGatewayStatement(gateway.id, now) : null,
      updateBatteriesStatement(batteryChanges(fresh.readings)),
      siteHeat.save,
      places.save,
    ],
    places: places.folded,
    // A place written is announced too: a reading another gateway delivered first is not fresh
    // here, yet this gateway's hearing of it may move the wearer on the map.
    updatedWearers: [
      ...new Set([...latest.map((u) => u.wearerId), ...fresh.wearers, ...places.written]),
    ],
    placesWritten: places.written,
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
