import {
  type AlertPlace,
  type GatewaySite,
  NO_PLACE,
  type PlaceState,
  placeOf,
  placeStep,
  type Position,
  toAlertPlace,
} from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { placesRepository, savePlacesStatement, type SightingRow } from './places.repository.js';

const ms = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();

async function placeAtOpening(
  db: Queryable,
  wearerId: string,
  at: Date,
  folded?: FoldedPlace,
): Promise<AlertPlace> {
  if (folded) {
    // The batch's own fold (every gateway that heard the bracelet, a re-heard reading included).
    const place = placeOf(folded.state, folded.position, at.getTime());
    const ids = place.kind === 'unknown' ? [] : [place.gatewayId];
    const names = new Map(
      (await placesRepository(db).gatewayZones(ids)).map((g) => [g.gatewayId, g]),
    );
    return toAlertPlace(
      place,
      (id) => names.get(id)?.name ?? null,
      (id) => {
        const g = names.get(id);
        return g?.siteId && g.siteName ? { siteId: g.siteId, siteName: g.siteName } : null;
      },
    );
  }
  const rows = await placesRepository(db).sightingsUpTo(wearerId, at);
  return placeFromRows(rows, at.getTime());
}

/**
 * Places in the caller's transaction. The folds below (`foldBatchPlaces`, `placeFromRows`, …) are pure
 * functions beside it: they need nothing but their arguments.
 */
export function placesService(tx: Queryable) {
  return {
    /**
     * Where the wearer is at `at`, decided by the domain's place function (packages/domain/src/place)
     * over what was stored up to then. Called only when an alert that records its place opens, inside
     * the transaction that opens it (so the batch's own readings and positions count): a reading costs
     * nothing more, and every server decides the same from the same rows.
     */
    atOpening: (wearerId: string, at: Date, folded?: FoldedPlace): Promise<AlertPlace> =>
      placeAtOpening(tx, wearerId, at, folded),
  };
}

/** A wearer's place state after a batch's sightings, and their newest phone position. */
export interface FoldedPlace {
  state: PlaceState;
  position: Position | null;
}

/** The fold itself (oldest sighting first), apart from the query so it is tested on its own. */
export function placeFromRows(rows: SightingRow[], now: number): AlertPlace {
  const names = new Map<string, string | null>();
  const sites = new Map<string, GatewaySite>();
  let state: PlaceState = NO_PLACE;
  let position: Position | null = null;
  const sightings = rows
    .filter((r) => r.kind === 'sighting')
    .map((r) => ({ gatewayId: r.gateway_id, at: ms(r.at), rssi: r.rssi }))
    .sort((a, b) => a.at - b.at);
  for (const r of rows) {
    names.set(r.gateway_id, r.gateway_name);
    sites.set(
      r.gateway_id,
      r.site_id && r.site_name ? { siteId: r.site_id, siteName: r.site_name } : null,
    );
  }
  for (const s of sightings) state = placeStep(state, s);
  const p = rows.find((r) => r.kind === 'position');
  if (p && p.latitude !== null && p.longitude !== null && p.accuracy !== null) {
    position = {
      latitude: p.latitude,
      longitude: p.longitude,
      accuracy: p.accuracy,
      at: ms(p.at),
      gatewayId: p.gateway_id,
    };
  }
  return toAlertPlace(
    placeOf(state, position, now),
    (id) => names.get(id) ?? null,
    (id) => sites.get(id) ?? null,
  );
}

/** What a batch heard: its gateway, each new reading and event, each new phone position. */
export interface BatchSightings {
  organizationId: string;
  gatewayId: string;
  sightings: { wearerId: string; at: Date; rssi: number | null }[];
  positions: {
    wearerId: string;
    at: Date;
    latitude: number;
    longitude: number;
    accuracy: number;
  }[];
}

const positionOf = (v: unknown): Position | null => {
  if (typeof v !== 'object' || v === null) return null;
  const p = v as Partial<Position>;
  return typeof p.latitude === 'number' &&
    typeof p.longitude === 'number' &&
    typeof p.accuracy === 'number' &&
    typeof p.at === 'number' &&
    typeof p.gatewayId === 'string'
    ? (p as Position)
    : null;
};

/** A stored place state, or the empty one when the row is missing or not of this shape. */
export const placeStateOf = (v: unknown): PlaceState =>
  typeof v === 'object' && v !== null && Array.isArray((v as PlaceState).heard)
    ? (v as PlaceState)
    : NO_PLACE;

/** The stored position as the domain's, or null. */
export const storedPositionOf = positionOf;

/**
 * Folds a batch's new sightings and positions into each wearer's stored place state (the map's
 * source, wearer_places) and returns the write for the batch's combined round trip. `stored` is
 * what the engine's lock read with the engine_state rows (`lockStates`, one round trip): batches of
 * one wearer take turns there, so this read and that write never interleave with another server's.
 */
export function foldBatchPlaces(
  stored: ReadonlyMap<string, { state: unknown; position: unknown }>,
  batch: BatchSightings,
): {
  save: { text: string; params: unknown[] } | null;
  folded: Map<string, FoldedPlace>;
  /** The wearers whose stored place the save writes (announced after the commit: the map's rows). */
  written: string[];
} {
  const folded = new Map<string, FoldedPlace>();
  const wearerIds = [...new Set([...batch.sightings, ...batch.positions].map((s) => s.wearerId))];
  if (wearerIds.length === 0) return { save: null, folded, written: [] };
  const heardBy = new Map<string, BatchSightings['sightings']>();
  for (const s of batch.sightings) {
    const list = heardBy.get(s.wearerId);
    if (list) list.push(s);
    else heardBy.set(s.wearerId, [s]);
  }
  const rows = wearerIds.map((wearerId) => {
    const before = stored.get(wearerId);
    let state = placeStateOf(before?.state);
    const heard = (heardBy.get(wearerId) ?? []).sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const s of heard) {
      // A redelivered batch says nothing new: what this gateway said at that time is folded once.
      const said = state.heard.find((h) => h.gatewayId === batch.gatewayId);
      if (said && said.lastAt >= s.at.getTime()) continue;
      state = placeStep(state, { gatewayId: batch.gatewayId, at: s.at.getTime(), rssi: s.rssi });
    }
    let position = positionOf(before?.position);
    let positionChanged = false;
    for (const p of batch.positions) {
      if (p.wearerId !== wearerId || (position && position.at >= p.at.getTime())) continue;
      position = {
        latitude: p.latitude,
        longitude: p.longitude,
        accuracy: p.accuracy,
        at: p.at.getTime(),
        gatewayId: batch.gatewayId,
      };
      positionChanged = true;
    }
    folded.set(wearerId, { state, position });
    // Only the time at the same gateways moved, a little: the stored row stays (issue 17: the
    // fold's cost per reading); this batch's alerts still take the folded state above.
    if (
      !positionChanged &&
      before !== undefined &&
      onlyTimesMoved(placeStateOf(before.state), state)
    )
      return null;
    return {
      wearerId,
      stateJson: JSON.stringify(state),
      positionJson: positionChanged ? JSON.stringify(position) : null,
    };
  });
  const changed = rows.filter((r): r is NonNullable<(typeof rows)[number]> => r !== null);
  return {
    save: savePlacesStatement(batch.organizationId, changed),
    folded,
    written: changed.map((r) => r.wearerId),
  };
}

/**
 * How far a stored place state's times may lag behind the folded one before it is written again.
 * Well inside PLACE_RULES.recentMs (2 min): the map's "at <gateway>" turns to "last heard" at most
 * this much earlier, and the stored time it shows is at most this old.
 */
export const PLACE_WRITE_LAG_MS = 15_000;

/**
 * Whether `next` differs from `stored` only in the times its gateways were last heard, each by less
 * than PLACE_WRITE_LAG_MS: same place (current gateway and since), same gateways in the same order,
 * same signal strengths (so a smoothed RSSI is never lost).
 */
export function onlyTimesMoved(stored: PlaceState, next: PlaceState): boolean {
  if (stored.current !== next.current || stored.since !== next.since) return false;
  if (stored.heard.length !== next.heard.length) return false;
  return next.heard.every((h, i) => {
    const s = stored.heard[i];
    return (
      s !== undefined &&
      s.gatewayId === h.gatewayId &&
      s.rssi === h.rssi &&
      h.lastAt - s.lastAt < PLACE_WRITE_LAG_MS
    );
  });
}
