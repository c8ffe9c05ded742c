import { z } from 'zod';
import { ALERT_LEVELS, ALERT_TYPES, type AlertLevel, type AlertType } from '../alerts.js';
import { organizationIdParams } from './alert-policy.js';
import { uidParams } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

/**
 * Where everyone is (issue 17, item 4; docs/map.md): one answer with the place of every wearer the
 * caller sees, decided by the domain's place function (place/place.ts) over the state folded at
 * ingestion, so asking costs no scan of readings. Gateways are named once, people point at them.
 */

/**
 * The place of a person now: the domain's `Place` with ISO times. This is the page's view of a
 * person (`decodeMapPeople`); the answer carries it as a row (`mapPlaceRow`).
 */
export type MapPlace =
  | {
      kind: 'position';
      latitude: number;
      longitude: number;
      /** Metres. */
      accuracy: number;
      at: string;
      gatewayId: string;
    }
  /** At the gateway that hears the bracelet best (with hysteresis), since `since`. */
  | { kind: 'gateway'; gatewayId: string; since: string }
  /** Nobody heard the bracelet recently: where and when it was heard last. */
  | { kind: 'last-heard'; gatewayId: string; at: string }
  | { kind: 'unknown' }
  /** The organisation shows places only during an alert (placePrivacy) and this person has none. */
  | { kind: 'withheld' };

/** The wearer's most urgent open alert (EMERGENCY first, then the newest). */
export interface MapAlert {
  alertId: string;
  type: AlertType;
  level: AlertLevel;
  openedAt: string;
}

/** A person as the page shows them (decoded from a row of the answer by `decodeMapPeople`). */
export interface MapPerson {
  wearerId: string;
  name: string;
  groupId: string | null;
  place: MapPlace;
  alert: MapAlert | null;
}

/** A gateway someone is placed at or was last heard at, with the site it is placed on. */
export const mapGateway = z.object({
  gatewayId: z.string(),
  name: z.string(),
  siteId: z.string().nullable(),
  siteName: z.string().nullable(),
});
export type MapGateway = z.infer<typeof mapGateway>;

/** An index into the answer's `gateways` (a row names its gateway by position, not by id). */
const gatewayIndex = z.number().int().min(0);
/** Milliseconds since 1970 (a row's times: shorter than ISO text and parsed for free). */
const epochMs = z.number().int();

/**
 * A person's place as a row: `["gateway", gateway, since]`, `["last-heard", gateway, at]`,
 * `["position", gateway, at, latitude, longitude, accuracy]` (the phone gateway that sent it;
 * accuracy in metres), `["unknown"]` or `["withheld"]`. Gateways are indexes into `gateways`.
 */
export const mapPlaceRow = z.union([
  z.tuple([z.literal('gateway'), gatewayIndex, epochMs]),
  z.tuple([z.literal('last-heard'), gatewayIndex, epochMs]),
  z.tuple([z.literal('position'), gatewayIndex, epochMs, z.number(), z.number(), z.number()]),
  z.tuple([z.literal('unknown')]),
  z.tuple([z.literal('withheld')]),
]);
export type MapPlaceRow = z.infer<typeof mapPlaceRow>;

/** The most urgent open alert as a row: `[alertId, type, level, openedAt]`. */
export const mapAlertRow = z.tuple([
  z.string(),
  z.enum(ALERT_TYPES),
  z.enum(ALERT_LEVELS),
  epochMs,
]);
export type MapAlertRow = z.infer<typeof mapAlertRow>;

/**
 * A person as a row: `[wearerId, name, group, place, alert]`, the group an index into `groups`
 * (or null), the alert null when none is open. 10,000 people are about 0.6 MB instead of the
 * 1.7 MB of one object each with its keys (issue 17's speed target, docs/map.md).
 */
export const mapPersonRow = z.tuple([
  z.string(),
  z.string(),
  z.number().int().min(0).nullable(),
  mapPlaceRow,
  mapAlertRow.nullable(),
]);
export type MapPersonRow = z.infer<typeof mapPersonRow>;

/** The outdoor map's tiles (the server's MAP_TILE_URL), or null: positions on a plain grid only. */
export const mapTiles = z
  .object({
    /** A template with {z}, {x}, {y} (and perhaps {s}). */
    url: z.string(),
    /** Shown with the tiles, as their licence asks (default "© OpenStreetMap contributors"). */
    attribution: z.string(),
  })
  .nullable();
export type MapTiles = z.infer<typeof mapTiles>;

export const mapResponse = z.object({
  generatedAt: z.string(),
  tiles: mapTiles,
  /** The organisation's privacy setting: places of people without an open alert are withheld. */
  placesOnlyDuringAlerts: z.boolean(),
  groups: z.array(z.object({ groupId: z.string(), name: z.string() })),
  gateways: z.array(mapGateway),
  /** One row each (`mapPersonRow`): open alerts first (EMERGENCY, then CRITICAL, ...), then by name. */
  people: z.array(mapPersonRow),
});
export type MapResponse = z.infer<typeof mapResponse>;

const isoOf = (ms: number) => new Date(ms).toISOString();

/** A row's place as the page's `MapPlace` (gateway ids and ISO times). */
function placeOfRow(row: MapPlaceRow, gateways: readonly MapGateway[]): MapPlace {
  const id = (i: number) => {
    const g = gateways[i];
    if (!g) throw new Error(`map answer: gateway ${i} is not in its gateways`);
    return g.gatewayId;
  };
  switch (row[0]) {
    case 'gateway':
      return { kind: 'gateway', gatewayId: id(row[1]), since: isoOf(row[2]) };
    case 'last-heard':
      return { kind: 'last-heard', gatewayId: id(row[1]), at: isoOf(row[2]) };
    case 'position':
      return {
        kind: 'position',
        gatewayId: id(row[1]),
        at: isoOf(row[2]),
        latitude: row[3],
        longitude: row[4],
        accuracy: row[5],
      };
    case 'unknown':
      return { kind: 'unknown' };
    case 'withheld':
      return { kind: 'withheld' };
  }
}

/** The answer's rows read back into one `MapPerson` each, in the answer's order. */
export function decodeMapPeople(answer: MapResponse): MapPerson[] {
  return answer.people.map(([wearerId, name, group, place, alert]) => ({
    wearerId,
    name,
    groupId: group === null ? null : (answer.groups[group]?.groupId ?? null),
    place: placeOfRow(place, answer.gateways),
    alert: alert
      ? { alertId: alert[0], type: alert[1], level: alert[2], openedAt: isoOf(alert[3]) }
      : null,
  }));
}

/** The order of urgency of an open alert on the map (lower first). */
export const MAP_ALERT_RANK: Record<AlertLevel, number> = {
  EMERGENCY: 0,
  CRITICAL: 1,
  CAUTION: 2,
  DEVICE_STATUS: 3,
};

/**
 * The organisation's place privacy (issue 17, item 5): with `placesOnlyDuringAlerts`, /map shows a
 * person's place only while they have an open EMERGENCY or CRITICAL alert (the alerts that record
 * their place); places are still folded and stored, so an SOS shows where at once.
 */
export const placePrivacy = z.strictObject({ placesOnlyDuringAlerts: z.boolean() });
export type PlacePrivacy = z.infer<typeof placePrivacy>;

const map = endpointsOf({ tags: ['Map'], errors: BEARER_ERRORS });

export const getPlaceMap = map({
  method: 'GET',
  path: '/v2/organization/{organizationId}/map',
  permission: 'place:read',
  summary:
    'Where every wearer the caller sees is now (phone position, the gateway that hears them best, or where they were last heard), with their open alert',
  params: organizationIdParams,
  responses: { 200: mapResponse },
});

export const getPlacePrivacy = map({
  method: 'GET',
  path: '/v2/organization/{organizationId}/placePrivacy',
  permission: 'place:read',
  summary: "The organisation's place privacy: whether places show only while an alert is open",
  params: organizationIdParams,
  responses: { 200: placePrivacy },
});

export const updatePlacePrivacy = map({
  method: 'PUT',
  path: '/v2/organization/{organizationId}/placePrivacy',
  permission: 'organization:update',
  summary:
    'Show places only while an EMERGENCY or CRITICAL alert is open, or always (owners; audited)',
  params: organizationIdParams,
  body: placePrivacy,
  responses: { 200: placePrivacy },
});

/** How many hours back a trail goes (1 to 24, 12 by default). */
export const TRAIL_HOURS = { min: 1, max: 24, default: 12 } as const;
export const wearerTrailQuery = z.object({
  hours: z.coerce
    .number()
    .int()
    .min(TRAIL_HOURS.min)
    .max(TRAIL_HOURS.max)
    .default(TRAIL_HOURS.default),
});

/** A stay at a stationary gateway: consecutive sightings there, no gap over 10 minutes. */
export const trailStay = z.object({
  gatewayId: z.string(),
  name: z.string().nullable(),
  siteName: z.string().nullable(),
  from: z.string(),
  to: z.string(),
});
export type TrailStay = z.infer<typeof trailStay>;

export const trailPosition = z.object({
  latitude: z.number(),
  longitude: z.number(),
  /** Metres. */
  accuracy: z.number(),
  at: z.string(),
});
export type TrailPosition = z.infer<typeof trailPosition>;

export const wearerTrail = z.object({
  from: z.string(),
  to: z.string(),
  /** The organisation shows places only during an alert and this wearer has none open: empty. */
  withheld: z.boolean(),
  /** The tiles for the trail's map (as /map's). */
  tiles: mapTiles,
  /** Phone positions, oldest first (at most 2,000). */
  positions: z.array(trailPosition),
  /** Stays at gateways, oldest first. */
  stays: z.array(trailStay),
});
export type WearerTrail = z.infer<typeof wearerTrail>;

export const getWearerTrail = map({
  method: 'GET',
  path: '/v2/wearer/{uid}/trail',
  permission: 'place:read',
  summary:
    "A wearer's trail of the last hours: phone positions, and stays at gateways (withheld like /map's places)",
  params: uidParams,
  query: wearerTrailQuery,
  responses: { 200: wearerTrail },
});
