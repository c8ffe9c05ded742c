import {
  type Actor,
  ALERT_LEVELS,
  ALERT_TYPES,
  type AlertLevel,
  type AlertType,
  MAP_ALERT_RANK,
  type MapPersonRow,
  type MapPlaceRow,
  type MapResponse,
  type Place,
  type PlacePrivacy,
  type TrailStay,
  type WearerTrail,
  placeOf,
  recordsPlace,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import { wearerScopeInMemory } from '../../access/scope-sql.js';
import type { AppContext } from '../../context.js';
import { auditService } from '../audit/audit.service.js';
import { type OpenAlertRow, placesRepository, type TrailRow } from './places.repository.js';

/** A gap longer than this between two sightings at one gateway ends the stay. */
const STAY_GAP_MS = 10 * 60_000;

/** Consecutive sightings at one gateway, no gap over STAY_GAP_MS, as stays (oldest first). */
export function staysOf(rows: readonly TrailRow[]): TrailStay[] {
  const stays: TrailStay[] = [];
  let last: { stay: TrailStay; at: number } | null = null;
  for (const r of rows) {
    if (r.kind !== 'sighting' || r.gateway_id === null) continue;
    const at = new Date(r.at).getTime();
    if (last && last.stay.gatewayId === r.gateway_id && at - last.at <= STAY_GAP_MS) {
      last.stay.to = iso(at);
      last.at = at;
      continue;
    }
    const stay: TrailStay = {
      gatewayId: r.gateway_id,
      name: r.gateway_name,
      siteName: r.site_name,
      from: iso(at),
      to: iso(at),
    };
    stays.push(stay);
    last = { stay, at };
  }
  return stays;
}
import { placeStateOf, storedPositionOf } from './places.service.js';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOf = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/** The domain's place as a row of the map's answer (epoch times, the gateway by its index). */
function toPlaceRow(place: Place, gatewayIndex: (gatewayId: string) => number): MapPlaceRow {
  switch (place.kind) {
    case 'position':
      return [
        'position',
        gatewayIndex(place.gatewayId),
        place.at,
        place.latitude,
        place.longitude,
        place.accuracy,
      ];
    case 'gateway':
      return ['gateway', gatewayIndex(place.gatewayId), place.since];
    case 'last-heard':
      return ['last-heard', gatewayIndex(place.gatewayId), place.at];
    case 'unknown':
      return ['unknown'];
  }
}

const isType = (v: string): v is AlertType => (ALERT_TYPES as readonly string[]).includes(v);
const isLevel = (v: string): v is AlertLevel => (ALERT_LEVELS as readonly string[]).includes(v);

/** An open alert as the map ranks it (`openedAt` in ms). */
interface OpenAlert {
  alertId: string;
  type: AlertType;
  level: AlertLevel;
  openedAt: number;
}

/** Each wearer's most urgent open alert: EMERGENCY first, then the newest. */
function mostUrgent(rows: OpenAlertRow[]): Map<string, OpenAlert> {
  const byWearer = new Map<string, OpenAlert>();
  for (const r of rows) {
    if (!isType(r.type) || !isLevel(r.level)) continue;
    const alert: OpenAlert = {
      alertId: r.alertId,
      type: r.type,
      level: r.level,
      openedAt: new Date(r.openedAt).getTime(),
    };
    const before = byWearer.get(r.wearerId);
    const rank = (a: OpenAlert) => MAP_ALERT_RANK[a.level];
    if (
      !before ||
      rank(alert) < rank(before) ||
      (rank(alert) === rank(before) && alert.openedAt > before.openedAt)
    )
      byWearer.set(r.wearerId, alert);
  }
  return byWearer;
}

interface Placed {
  wearerId: string;
  name: string;
  groupId: string | null;
  place: Place | null;
  alert: OpenAlert | null;
}

/**
 * Names compare as `localeCompare` does (the runtime's default collation), with one collator made
 * once: `localeCompare` looks its collator up on each call, a tenth of the answer's time for 10,000.
 */
const collator = new Intl.Collator();

/** Open alerts first (by urgency, newest first), then by name. */
function byUrgency(a: Placed, b: Placed): number {
  if (a.alert && b.alert) {
    const rank = MAP_ALERT_RANK[a.alert.level] - MAP_ALERT_RANK[b.alert.level];
    if (rank !== 0) return rank;
    if (a.alert.openedAt !== b.alert.openedAt) return a.alert.openedAt < b.alert.openedAt ? 1 : -1;
  } else if (a.alert || b.alert) return a.alert ? -1 : 1;
  return collator.compare(a.name, b.name) || collator.compare(a.wearerId, b.wearerId);
}

/**
 * /map (issue 17, item 4; docs/map.md): where every wearer the caller sees is now. The
 * organisation's wearers with their stored place state from memory (place-snapshot.ts), two small
 * queries (the organisation's open alerts, the names of the gateways and groups named) and the
 * domain's `placeOf` per wearer: no readings are read, so the answer costs the same for a quiet
 * and a busy site.
 */
export function placeMapService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const places = placesRepository(ctx.db);
  return {
    async map(actor: Actor, organizationId: string): Promise<MapResponse> {
      await access.require(actor, 'place:read', 'organization', organizationId);
      // The organisation's wearers from memory, narrowed to the caller's scope as wearerScope does.
      const { test } = wearerScopeInMemory(actor, { organizationId });
      const [all, alerts, onlyDuringAlerts] = await Promise.all([
        ctx.placeSnapshots.rowsOf(organizationId),
        places.openAlertsOf(organizationId),
        places.placesOnlyDuringAlerts(organizationId),
      ]);
      const wearers = test ? all.filter((w) => test({ uid: w.wearerId, groupId: w.groupId })) : all;
      const now = ctx.now().getTime();
      const urgent = mostUrgent(alerts);
      const gatewayIds = new Set<string>();
      const placed = wearers.map((w): Placed => {
        const alert = urgent.get(w.wearerId) ?? null;
        // Privacy: with the setting on, a place is shown only while an alert that records it is open.
        const shown = !onlyDuringAlerts || (alert !== null && recordsPlace(alert));
        const place = shown
          ? placeOf(placeStateOf(w.state), storedPositionOf(w.position), now)
          : null;
        if (place && place.kind !== 'unknown') gatewayIds.add(place.gatewayId);
        return { wearerId: w.wearerId, name: w.name, groupId: w.groupId, place, alert };
      });
      placed.sort(byUrgency);
      const names = await places.namesOf(organizationId, [...gatewayIds]);
      const groupIds = new Set(placed.map((x) => x.groupId));
      const groups = names.groups.filter((g) => groupIds.has(g.groupId));
      const groupIndex = new Map(groups.map((g, i) => [g.groupId, i]));
      const gateways = [...names.gateways];
      const gatewayIndex = new Map(gateways.map((g, i) => [g.gatewayId, i]));
      // A gateway deleted since it was heard is still named, by its id, as the place says it.
      const indexOf = (gatewayId: string) => {
        let i = gatewayIndex.get(gatewayId);
        if (i === undefined) {
          i = gateways.push({ gatewayId, name: gatewayId, siteId: null, siteName: null }) - 1;
          gatewayIndex.set(gatewayId, i);
        }
        return i;
      };
      const people = placed.map((x): MapPersonRow => [
        x.wearerId,
        x.name,
        x.groupId === null ? null : (groupIndex.get(x.groupId) ?? null),
        x.place ? toPlaceRow(x.place, indexOf) : ['withheld'],
        x.alert ? [x.alert.alertId, x.alert.type, x.alert.level, x.alert.openedAt] : null,
      ]);
      return {
        generatedAt: iso(now),
        tiles: ctx.config.mapTiles,
        placesOnlyDuringAlerts: onlyDuringAlerts,
        groups,
        gateways,
        people,
      };
    },

    /**
     * A wearer's trail of the last `hours` (the wearer page): phone positions and stays at gateways.
     * With the organisation's privacy setting on, empty unless an alert that records the place is open.
     */
    async trail(actor: Actor, wearerId: string, hours: number): Promise<WearerTrail> {
      await access.require(actor, 'place:read', 'wearer', wearerId);
      const organizationId = await places.organizationOfWearer(wearerId);
      const now = ctx.now().getTime();
      const from = now - hours * 3_600_000;
      const [alerts, onlyDuringAlerts] = await Promise.all([
        places.openAlertsOf(organizationId),
        places.placesOnlyDuringAlerts(organizationId),
      ]);
      const alert = mostUrgent(alerts.filter((a) => a.wearerId === wearerId)).get(wearerId);
      const withheld = onlyDuringAlerts && !(alert && recordsPlace(alert));
      const rows = withheld ? [] : await places.trailOf(wearerId, new Date(from));
      return {
        from: iso(from),
        to: iso(now),
        withheld,
        tiles: ctx.config.mapTiles,
        positions: rows.flatMap((r) =>
          r.kind === 'position' && r.latitude !== null && r.longitude !== null
            ? [
                {
                  latitude: r.latitude,
                  longitude: r.longitude,
                  accuracy: r.accuracy ?? 0,
                  at: isoOf(r.at),
                },
              ]
            : [],
        ),
        stays: staysOf(rows),
      };
    },

    async privacy(actor: Actor, organizationId: string): Promise<PlacePrivacy> {
      await access.require(actor, 'place:read', 'organization', organizationId);
      return {
        placesOnlyDuringAlerts: await places.placesOnlyDuringAlerts(organizationId),
      };
    },

    /** Owners change it; the change and its value before are in the audit log. */
    async setPrivacy(
      actor: Actor,
      organizationId: string,
      body: PlacePrivacy,
    ): Promise<PlacePrivacy> {
      await access.require(actor, 'organization:update', 'organization', organizationId);
      await ctx.db.transaction(async (tx) => {
        const before = await placesRepository(tx).setPlacesOnlyDuringAlerts(
          organizationId,
          body.placesOnlyDuringAlerts,
        );
        if (before === body.placesOnlyDuringAlerts) return;
        await auditService(tx).record({
          organizationId,
          actorId: actor.uid,
          kind: 'placePrivacy.update',
          targetId: organizationId,
          before: { placesOnlyDuringAlerts: before },
          after: body,
        });
      });
      return { placesOnlyDuringAlerts: body.placesOnlyDuringAlerts };
    },
  };
}
