import { z } from 'zod';
import type { AlertLevel, AlertType } from '../alerts.js';
import { formatTime } from '../date-time.js';
import type { Place } from './place.js';

/**
 * The place an alert stores when it opens (issue 17): a snapshot, never recomputed, with the
 * gateway's name as it was then (a later rename does not move an old alert).
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
  }),
  z.object({
    kind: z.literal('gateway'),
    gatewayId: z.string(),
    gatewayName: z.string().nullable(),
    since: z.string(),
    rssi: z.number().nullable(),
  }),
  z.object({
    kind: z.literal('last-heard'),
    gatewayId: z.string(),
    gatewayName: z.string().nullable(),
    at: z.string(),
  }),
  z.object({ kind: z.literal('unknown') }),
]);
export type AlertPlace = z.infer<typeof alertPlace>;

/** Which alerts store their place: every EMERGENCY (SOS, fall) and every CRITICAL alert. */
export const recordsPlace = (a: { type: AlertType; level: AlertLevel }): boolean =>
  a.level === 'EMERGENCY' || a.level === 'CRITICAL';

/** The decided place as an alert stores it, with the gateway's name of now. */
export function toAlertPlace(place: Place, gatewayName: (id: string) => string | null): AlertPlace {
  const iso = (ms: number) => new Date(ms).toISOString();
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
      };
    case 'gateway':
      return {
        kind: 'gateway',
        gatewayId: place.gatewayId,
        gatewayName: gatewayName(place.gatewayId),
        since: iso(place.since),
        rssi: place.rssi,
      };
    case 'last-heard':
      return {
        kind: 'last-heard',
        gatewayId: place.gatewayId,
        gatewayName: gatewayName(place.gatewayId),
        at: iso(place.at),
      };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

type PlaceLang = 'ja' | 'en';

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
      const name = place.gatewayName ?? place.gatewayId;
      return ja ? `場所: ${name}` : `Place: ${name}`;
    }
    case 'last-heard': {
      const name = place.gatewayName ?? place.gatewayId;
      const time = formatTime(place.at, timeZone);
      return ja ? `最終受信: ${name} ${time}` : `Last heard at ${name}, ${time}`;
    }
  }
}
