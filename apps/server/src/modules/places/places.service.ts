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
import { type SightingRow, sightingsUpTo } from './places.repository.js';

const ms = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();

/**
 * Where the wearer is at `at`, decided by the domain's place function (packages/domain/src/place)
 * over what was stored up to then. Called only when an alert that records its place opens, inside
 * the transaction that opens it (so the batch's own readings and positions count): a reading costs
 * nothing more, and every server decides the same from the same rows.
 */
export async function placeAtOpening(
  db: Queryable,
  wearerId: string,
  at: Date,
): Promise<AlertPlace> {
  const rows = await sightingsUpTo(db, wearerId, at);
  return placeFromRows(rows, at.getTime());
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
