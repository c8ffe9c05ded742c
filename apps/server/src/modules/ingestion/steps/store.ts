import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import type { AlertRecord } from '../../../bus/events.js';
import { alertLifecycleService, type LockedWearers } from '../../alerts/alert-lifecycle.service.js';
import { unassignedAlertsService } from '../../alerts/unassigned-alerts.service.js';
import { type BatchFold, readingsService } from '../../readings/readings.service.js';
import { siteHeatService } from '../../site-heat/site-heat.service.js';
import type { AuthenticatedGateway } from '../gateway-auth.js';
import { ingestionRepository } from '../ingestion.repository.js';
import type { Resolved, ResolvedBatch, ResolvedEvent } from './resolve.js';

/** The batch entering its transaction: the events the urgent lane stored, the rollups' fold of it. */
export interface ToStore extends Resolved {
  /** Keys of the events the urgent lane stored with their alert (urgent-lane.ts). */
  aheadStored: ReadonlySet<string>;
  /** Rollups and latest values, folded in memory and written by the next flush (rollup-folder.ts). */
  rollups: BatchFold;
}

/** What the batch stored now (a redelivered item is not in it). */
export interface Fresh {
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
  /** Events of this batch the urgent lane stored with their alert (accepted; not stepped again). */
  storedAhead: number;
}

/** After "store": the wearers' engine state locked, the new items, the alerts of devices no wearer holds. */
export interface Stored extends ToStore {
  locked: LockedWearers;
  fresh: Fresh;
  /** The site's heat state, locked when the batch carries environment readings. */
  siteHeatState: unknown;
  /** Alerts of devices no wearer holds, opened by the batch (issue 34). */
  unassigned: AlertRecord[];
  /** Items the batch stored (the answer's `accepted`). */
  accepted: number;
}

/**
 * Step "store", first in the batch's transaction. Engine state rows first, in wearer order:
 * batches of the same wearers take turns here. The items' inserts and, with environment readings,
 * the site's heat state lock are sent with it (one turn, pipelined on PostgreSQL): the database
 * runs them in this order, so the lock order is as it was (wearers, then the site). Then the
 * gateway's own status, kept when newer than the stored one (a re-sent one is a duplicate).
 */
export async function store(ctx: AppContext, tx: Queryable, batch: ToStore): Promise<Stored> {
  const { gateway, items, parsed } = batch;
  const [locked, fresh, siteHeatState, unassigned] = await Promise.all([
    alertLifecycleService(ctx).lock(tx, items.wearerIds),
    storeItems(ctx, tx, gateway, items, batch.aheadStored),
    items.environment.length > 0 ? siteHeatService(ctx).lock(tx, gateway) : undefined,
    // An SOS or fall no wearer holds opens an alert all the same (unassigned-alerts.service.ts).
    unassignedAlertsService(ctx).open(tx, gateway, items.unassigned),
  ]);
  const status = parsed.status;
  const statusNew =
    status !== null &&
    (await ingestionRepository(tx).storeGatewayStatus(gateway.id, {
      ...status.item,
      at: status.at,
    }));
  return {
    ...batch,
    locked,
    fresh,
    siteHeatState,
    unassigned: unassigned.opened,
    accepted:
      unassigned.accepted +
      fresh.environment.length +
      fresh.events.length +
      fresh.storedAhead +
      fresh.readings.length +
      items.sync.pairings.length +
      items.sync.acks.length +
      (statusNew ? 1 : 0),
  };
}

/** Stores the batch's items once; only the new ones go on (a redelivered batch changes nothing). */
async function storeItems(
  ctx: AppContext,
  tx: Queryable,
  gateway: AuthenticatedGateway,
  batch: ResolvedBatch,
  aheadStored: ReadonlySet<string>,
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
  // Stored by the urgent lane with its alert (urgent-lane.ts): accepted, not stepped again.
  const storedAhead = aheadStored.size
    ? batch.events.filter((e) => !newEvents.has(e.key) && aheadStored.has(e.key)).length
    : 0;
  return { readings, events, environment: environmentNew, wearers, storedAhead };
}
