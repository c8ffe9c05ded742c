import { z } from 'zod';
import type { AlertLevel, AlertType } from '../alerts.js';
import { formatTime } from '../date-time.js';
import type { Place } from './place.js';

/**
 * The site a gateway was placed on when the alert opened, with its name as it was; absent on alerts
 * stored before sites existed, null when the gateway was on no site.
 */
const siteAtOpening = {
  siteId: z.string().nullable().optional(),
  siteName: z.string().nullable().optional(),
};

/**
 * The place an alert stores when it opens (issue 17): a snapshot, never recomputed, with the
 * gateway's (and its site's) name as it was then (a later rename does not move an old alert).
 */
export const alertPlace = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('position'),
    latitude: z.number(),
    longitude: z.number(),
    /** Metres. */
    accuracy: z.number(),
    at: z.string(),
    gatewayId: z.string(),
    gatewayName: z.string().nullable(),
    ...siteAtOpening,
  }),
  z.object({
    kind: z.literal('gateway'),
    gatewayId: z.string(),
    gatewayName: z.string().nullable(),
    since: z.string(),
    rssi: z.number().nullable(),
    ...siteAtOpening,
  }),
  z.object({
    kind: z.literal('last-heard'),
    gatewayId: z.string(),
    gatewayName: z.string().nullable(),
    at: z.string(),
    ...siteAtOpening,
  }),
  z.object({ kind: z.literal('unknown') }),
]);
export type AlertPlace = z.infer<typeof alertPlace>;

/** Which alerts store their place: every EMERGENCY (SOS, fall) and every CRITICAL alert. */
export const recordsPlace = (a: { type: AlertType; level: AlertLevel }): boolean =>
  a.level === 'EMERGENCY' || a.level === 'CRITICAL';

/** The site a gateway is placed on (issue 17, /settings/sites), or null. */
export type GatewaySite = { siteId: string; siteName: string } | null;

/** The decided place as an alert stores it, with the gateway's (and its site's) name of now. */
export function toAlertPlace(
  place: Place,
  gatewayName: (id: string) => string | null,
  siteOf: (gatewayId: string) => GatewaySite = () => null,
): AlertPlace {
  const iso = (ms: number) => new Date(ms).toISOString();
  const site = (id: string) => {
    const s = siteOf(id);
    return { siteId: s?.siteId ?? null, siteName: s?.siteName ?? null };
  };
  switch (place.kind) {
    case 'position':
      return {
        kind: 'position',
        latitude: place.latitude,
        longitude: place.longitude,
        accuracy: place.accuracy,
        at: iso(place.at),
        gatewayId: place.gatewayId,
        gatewayName: gatewayName(place.gatewayId),
        ...site(place.gatewayId),
      };
    case 'gateway':
      return {
        kind: 'gateway',
        gatewayId: place.gatewayId,
        gatewayName: gatewayName(place.gatewayId),
        since: iso(place.since),
        rssi: place.rssi,
        ...site(place.gatewayId),
      };
    case 'last-heard':
      return {
        kind: 'last-heard',
        gatewayId: place.gatewayId,
        gatewayName: gatewayName(place.gatewayId),
        at: iso(place.at),
        ...site(place.gatewayId),
      };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

type PlaceLang = 'ja' | 'en';

/**
 * The zone a gateway place names: the gateway's name, with its site's before it when the gateway
 * was placed on one ("Main building · Dining room"); the id when the gateway had no name.
 */
export function zoneName(
  place: {
    gatewayId: string;
    gatewayName: string | null;
    siteName?: string | null | undefined;
  },
  separator = ' · ',
): string {
  const gateway = place.gatewayName ?? place.gatewayId;
  return place.siteName ? `${place.siteName}${separator}${gateway}` : gateway;
}

/** A position as people read it: 5 decimals (about a metre) and the accuracy in whole metres. */
export const formatPosition = (p: { latitude: number; longitude: number; accuracy: number }) =>
  `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)} (±${Math.round(p.accuracy)} m)`;

/**
 * The place in one short phrase for an SMS, a call or a CSV cell, e.g. 「場所: 2階 食堂」,
 * "Last heard at Entrance, 14:03", "Place unknown".
 */
export function placeText(place: AlertPlace | null, lang: PlaceLang, timeZone?: string): string {
  const ja = lang === 'ja';
  if (place === null || place.kind === 'unknown') return ja ? '場所不明' : 'Place unknown';
  switch (place.kind) {
    case 'position':
      return ja ? `位置: ${formatPosition(place)}` : `Position: ${formatPosition(place)}`;
    case 'gateway': {
      const name = zoneName(place);
      return ja ? `場所: ${name}` : `Place: ${name}`;
    }
    case 'last-heard': {
      const name = zoneName(place);
      const time = formatTime(place.at, timeZone);
      return ja ? `最終受信: ${name} ${time}` : `Last heard at ${name}, ${time}`;
    }
  }
}
