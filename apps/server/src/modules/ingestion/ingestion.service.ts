import type { BatchResult, BraceletReading, DeviceEvent, GatewayLocation } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { withLaneHint } from '../../db/priority-lane.js';
import { lockWearers, publishOutcome, runEngine, type WearerInputs } from '../../engine/runner.js';
import type { EngineInput } from '../../engine/types.js';
import type { LatestInput } from '../readings/latest-fold.js';
import {
  insertPositions,
  insertReadings,
  type PositionRow,
  type ReadingRow,
} from '../readings/readings-store.repository.js';
import { publishSiteHeat, stepSiteHeat } from '../site-heat/site-heat.service.js';
import { type Indexed, isUrgentEvent, parseBatchItems, type RejectedItem } from './batch-items.js';
import type { AuthenticatedGateway } from './gateway-auth.js';
import { braceletsOf, shouldTouchGateway } from './ingestion-caches.js';
import {
  parseSyncItems,
  pendingConfigOf,
  resolveSyncItems,
  syncBracelets,
} from './bracelet-sync.js';
import {
  type BraceletRow,
  insertEvents,
  touchGateway,
  updateBatteries,
} from './ingestion.repository.js';

export interface IncomingBatch {
  batchId?: string | undefined;
  readings: unknown[];
  environment: unknown[];
  events: unknown[];
  /** Pairing events and configuration acknowledgements (bracelet-sync.ts). */
  pairings?: unknown[];
  configAcks?: unknown[];
}

type Resolved<T> = Indexed<T> & { bracelet: BraceletRow & { wearerId: string } };

/** Keeps the items whose bracelet belongs to the gateway's organisation and has a wearer. */
function resolveBracelets<T extends { serialNumber: string }>(
  list: 'readings' | 'events',
  items: Indexed<T>[],
  bracelets: Map<string, BraceletRow>,
  rejected: RejectedItem[],
): Resolved<T>[] {
  const out: Resolved<T>[] = [];
  for (const entry of items) {
    const bracelet = bracelets.get(entry.item.serialNumber);
    if (!bracelet) {
      rejected.push({
        list,
        index: entry.index,
        reason: `unknown bracelet ${entry.item.serialNumber}`,
      });
    } else if (!bracelet.wearerId) {
      rejected.push({
        list,
        index: entry.index,
        reason: `bracelet ${entry.item.serialNumber} has no wearer`,
      });
    } else {
      out.push({ ...entry, bracelet: { ...bracelet, wearerId: bracelet.wearerId } });
    }
  }
  return out;
}

const key = (braceletId: string, at: Date) => `${braceletId}|${at.getTime()}`;

function uniqueBy<T>(items: T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = keyOf(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const URGENT_EVENTS: ReadonlySet<unknown> = new Set(['SOS', 'FALL']);
const backlogOf = (ctx: AppContext) => ctx.ingestion.backlog;

/** Batches being ingested now (queued for the database or running). */
export const ingestionBacklog = (ctx: AppContext): number => backlogOf(ctx).pending;

/**
 * A batch carrying an SOS or a fall: it takes the database's priority lane and is never refused.
 * The item is validated first (and must be of now): a bogus SOS must not skip back-pressure.
 */
export const isUrgentBatch = (batch: IncomingBatch, now: Date): boolean =>
  batch.events.some((e) => isUrgentEvent(e, now));

/**
 * Ingests one gateway batch (HTTP and MQTT alike): validates item by item, stores the new
 * items once, updates rollups and latest values, runs the engine on exactly the new inputs
 * and writes alerts and engine state, all in ONE transaction. Bus events leave after commit.
 */
export async function ingestBatch(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  batch: IncomingBatch,
): Promise<BatchResult> {
  const backlog = backlogOf(ctx);
  backlog.pending++;
  try {
    // The bracelet look-up before the transaction takes the same lane as the transaction.
    const urgent = isUrgentBatch(batch, ctx.now());
    return await withLaneHint({ urgent }, () => ingestOne(ctx, gateway, batch));
  } finally {
    backlog.pending--;
  }
}

async function ingestOne(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  batch: IncomingBatch,
): Promise<BatchResult> {
  const now = ctx.now();
  const parsed = parseBatchItems(batch, now);
  const rejected = parsed.rejected;
  const syncItems = parseSyncItems(batch, rejected);
  const serials = [
    ...new Set(
      [...parsed.readings, ...parsed.events, ...syncItems.pairings, ...syncItems.acks].map(
        (e) => e.item.serialNumber,
      ),
    ),
  ];
  const bracelets = await braceletsOf(ctx, gateway.organizationId, serials);
  const sync = resolveSyncItems(syncItems, bracelets, rejected);
  // The same item twice in one batch is stored once and counted as a duplicate.
  const readings = uniqueBy(
    resolveBracelets<BraceletReading>('readings', parsed.readings, bracelets, rejected),
    (r) => key(r.bracelet.id, r.at),
  );
  const events = uniqueBy(
    resolveBracelets<DeviceEvent>('events', parsed.events, bracelets, rejected),
    (e) => `${key(e.bracelet.id, e.at)}|${e.item.type}`,
  );
  const environment = uniqueBy(parsed.environment, (e) => String(e.at.getTime()));
  const wearerIds = [...new Set([...readings, ...events].map((r) => r.bracelet.wearerId))];

  // SOS/FALL batches go ahead of queued batches of other wearers (db/priority-lane.ts).
  const urgent = events.some((e) => URGENT_EVENTS.has(e.item.type));
  // Rollups and latest values are folded in memory and written by the next flush
  // (rollup-folder.ts); the transaction records what it leaves to that flush.
  const fold = ctx.rollups.begin();
  const stored = await (async () => {
    try {
      const stored = await ctx.db.transaction(
        async (tx) => {
          const locked = await lockWearers(ctx, tx, wearerIds);
          const eventsNew = await insertEvents(
            tx,
            gateway.organizationId,
            gateway.id,
            events.map(({ item, at, bracelet }) => ({
              braceletId: bracelet.id,
              wearerId: bracelet.wearerId,
              type: item.type,
              at,
              location: item.location ? { ...item.location, at: new Date(item.location.at) } : null,
            })),
          );
          const readingRows: (ReadingRow & { timeZone: string })[] = readings.map(
            ({ item, at, bracelet }) => ({
              braceletId: bracelet.id,
              wearerId: bracelet.wearerId,
              timeZone: bracelet.timeZone,
              at,
              heartRate: item.heartRate ?? null,
              skinTemperature: item.skinTemperature ?? null,
              worn: item.worn ?? null,
              steps: item.steps ?? null,
              sleepStage: item.sleepStage ?? null,
              stressLevel: item.stressLevel ?? null,
              battery: item.battery ?? null,
              rssi: item.rssi ?? null,
              environmentGatewayId: bracelet.gatewayId ?? gateway.id,
            }),
          );
          await insertPositions(
            tx,
            gateway.organizationId,
            gateway.id,
            positionsOf(readings, events),
          );
          const { readings: readingsNew, environmentNew } = await insertReadings(
            tx,
            gateway.organizationId,
            gateway.id,
            readingRows,
            environment.map(({ item, at }) => ({
              at,
              temperature: item.temperature ?? null,
              humidity: item.humidity ?? null,
              wbgt: item.wbgt ?? null,
            })),
          );

          // The site's heat level steps over the new WBGT only (a batch without any pays nothing).
          const siteHeat = await stepSiteHeat(ctx, tx, gateway, environmentNew);

          // Only what was new goes on: a redelivered batch changes nothing below.
          const newReadingKeys = new Map(readingsNew.map((r) => [key(r.braceletId, r.at), r.wbgt]));
          const newReadings = readingRows.filter((r) =>
            newReadingKeys.has(key(r.braceletId, r.at)),
          );
          const newEventKeys = new Set(
            eventsNew.map((e) => `${key(e.braceletId, e.at)}|${e.type}`),
          );
          const newEvents = events.filter((e) =>
            newEventKeys.has(`${key(e.bracelet.id, e.at)}|${e.item.type}`),
          );

          const latest: LatestInput[] = newReadings.map((r) => ({
            ...r,
            wbgt: newReadingKeys.get(key(r.braceletId, r.at)) ?? null,
          }));
          for (const e of newEvents) {
            if (e.item.type !== 'WORN' && e.item.type !== 'REMOVED') continue;
            const { id: braceletId, wearerId, timeZone } = e.bracelet;
            latest.push({
              kind: 'event',
              wearerId,
              braceletId,
              timeZone,
              at: e.at,
              worn: e.item.type === 'WORN',
            });
          }
          const marks = fold.prepare(latest, gateway.organizationId);
          if (shouldTouchGateway(ctx, gateway.id, now)) await touchGateway(tx, gateway.id, now);
          // The cached rows themselves (resolveBracelets copies them), so they learn the pairing.
          const reported = [...readings, ...events, ...sync.pairings].map((r) =>
            bracelets.get(r.item.serialNumber)!,
          );
          await syncBracelets(tx, gateway.id, reported, sync.acks, now);
          // Only a changed battery level costs a write.
          const batteries = new Map<string, { stored: number | null; latest: number }>();
          for (const r of [...readings].sort((a, b) => a.at.getTime() - b.at.getTime())) {
            if (r.item.battery === undefined || !newReadingKeys.has(key(r.bracelet.id, r.at)))
              continue;
            batteries.set(r.bracelet.id, { stored: r.bracelet.battery, latest: r.item.battery });
          }
          const batteryChanges = [...batteries]
            .filter(([, b]) => b.stored !== b.latest)
            .map(([braceletId, b]) => ({ braceletId, battery: b.latest }));
          // The cached bracelet rows learn the new level, so the next batch does not write it again.
          for (const r of readings) {
            const b = batteries.get(r.bracelet.id);
            const cached = bracelets.get(r.item.serialNumber);
            if (b && cached) cached.battery = b.latest;
          }
          await updateBatteries(tx, batteryChanges);

          const inputs = new Map<string, EngineInput[]>();
          const add = (wearerId: string, input: EngineInput) => {
            const list = inputs.get(wearerId);
            if (list) list.push(input);
            else inputs.set(wearerId, [input]);
          };
          for (const r of newReadings)
            add(r.wearerId, readingInput(r, newReadingKeys.get(key(r.braceletId, r.at)) ?? null));
          for (const e of newEvents)
            add(e.bracelet.wearerId, { kind: 'event', at: e.at, type: e.item.type });
          const wearerInputs: WearerInputs[] = [...inputs].map(([wearerId, list]) => ({
            wearerId,
            inputs: list,
          }));
          // What the flush must redo after a crash goes with the engine's state save (one round trip).
          const outcome = await runEngine(ctx, tx, locked, wearerInputs, [marks]);
          return {
            outcome,
            siteHeat,
            accepted:
              environmentNew.length +
              eventsNew.length +
              readingsNew.length +
              sync.pairings.length +
              sync.acks.length,
            updatedWearers: [
              ...new Set(latest.map((u) => u.wearerId).concat(wearerInputs.map((w) => w.wearerId))),
            ],
          };
        },
        { urgent, keys: wearerIds },
      );
      // Screens learn of new latest values when the flush wrote them; alerts go out now.
      fold.committed(
        stored.updatedWearers.flatMap((wearerId) => {
          const p = stored.outcome.profiles.get(wearerId);
          return p ? [{ organizationId: p.organizationId, groupId: p.groupId, wearerId }] : [];
        }),
      );
      publishOutcome(ctx, stored.outcome, []);
      publishSiteHeat(ctx, stored.siteHeat);
      return stored;
    } finally {
      fold.done();
    }
  })();
  // ROLLUP_FLUSH_MS=0: written before the answer (a failure is retried by the next flush).
  if (ctx.rollups.immediate) await fold.flushNow();

  const pendingConfig = await pendingConfigOf(ctx.db, gateway.id);
  const valid =
    batch.readings.length +
    batch.environment.length +
    batch.events.length +
    (batch.pairings?.length ?? 0) +
    (batch.configAcks?.length ?? 0) -
    rejected.length;
  rejected.sort((a, b) => (a.list === b.list ? a.index - b.index : a.list < b.list ? -1 : 1));
  return {
    ...(batch.batchId !== undefined ? { batchId: batch.batchId } : {}),
    accepted: stored.accepted,
    duplicates: valid - stored.accepted,
    rejected,
    ...(pendingConfig.length ? { pendingConfig } : {}),
  };
}

/** The positions a phone gateway sent with readings and events (one per position time). */
function positionsOf(
  ...lists: { item: { location?: GatewayLocation }; bracelet: { id: string; wearerId: string } }[][]
): PositionRow[] {
  const rows: PositionRow[] = [];
  for (const list of lists) {
    for (const { item, bracelet } of list) {
      if (!item.location) continue;
      const { latitude, longitude, accuracy, at } = item.location;
      rows.push({
        wearerId: bracelet.wearerId,
        braceletId: bracelet.id,
        latitude,
        longitude,
        accuracy,
        at: new Date(at),
      });
    }
  }
  return uniqueBy(rows, (r) => key(r.wearerId, r.at));
}

function readingInput(r: ReadingRow, wbgt: number | null): EngineInput {
  const input: EngineInput = { kind: 'reading', at: r.at };
  if (r.heartRate !== null) input.heartRate = r.heartRate;
  if (r.skinTemperature !== null) input.skinTemperature = r.skinTemperature;
  if (r.worn !== null) input.worn = r.worn;
  if (r.steps !== null) input.steps = r.steps;
  if (r.sleepStage !== null) input.sleepStage = r.sleepStage as 1 | 2 | 3 | 4;
  if (r.stressLevel !== null)
    input.stressLevel = r.stressLevel as NonNullable<typeof input.stressLevel>;
  if (r.battery !== null) input.battery = r.battery;
  if (wbgt !== null) input.wbgt = wbgt;
  return input;
}
