import type { Queryable } from '../../db/client.js';

/** How far back the sightings of an alert's opening are folded (a few times the place's "recent"). */
export const PLACE_HISTORY_MINUTES = 10;
/** The oldest sighting that still says "last heard at ..." when nothing was heard in the history. */
export const LAST_HEARD_HOURS = 24;

export interface SightingRow {
  kind: 'sighting' | 'position';
  gateway_id: string;
  gateway_name: string | null;
  /** The site the gateway is placed on now (gateway_places), if any. */
  site_id: string | null;
  site_name: string | null;
  at: Date | string;
  rssi: number | null;
  latitude: number | null;
  longitude: number | null;
  accuracy: number | null;
}

/**
 * One round trip: the wearer's sightings up to `at` (readings with the gateway that sent them and
 * its signal strength, device events with theirs) of the last PLACE_HISTORY_MINUTES, the newest one
 * before them (for "last heard"), and the newest phone position; each with its gateway's name and
 * the site it is placed on (the zone "<site> · <gateway>").
 */
export function sightingsUpTo(db: Queryable, wearerId: string, at: Date): Promise<SightingRow[]> {
  return db.query<SightingRow>(
    `WITH s AS (
       (SELECT 'sighting' AS kind, gateway_id, rssi::int AS rssi, at,
               NULL::float8 AS latitude, NULL::float8 AS longitude, NULL::float8 AS accuracy
          FROM readings
         WHERE wearer_id = $1 AND gateway_id IS NOT NULL AND at <= $2::timestamptz
           AND at > $2::timestamptz - make_interval(mins => $3)
         ORDER BY at DESC LIMIT 2000)
       UNION ALL
       (SELECT 'sighting', gateway_id, NULL, at, NULL, NULL, NULL
          FROM device_events
         WHERE wearer_id = $1 AND gateway_id IS NOT NULL AND at <= $2::timestamptz
           AND at > $2::timestamptz - make_interval(mins => $3)
         ORDER BY at DESC LIMIT 200)
       UNION ALL
       (SELECT 'sighting', gateway_id, rssi::int, at, NULL, NULL, NULL
          FROM readings
         WHERE wearer_id = $1 AND gateway_id IS NOT NULL
           AND at <= $2::timestamptz - make_interval(mins => $3)
           AND at > $2::timestamptz - make_interval(hours => $4)
         ORDER BY at DESC LIMIT 1)
       UNION ALL
       (SELECT 'position', gateway_id, NULL, at, latitude, longitude, accuracy::float8
          FROM wearer_positions
         WHERE wearer_id = $1 AND at <= $2::timestamptz
         ORDER BY at DESC LIMIT 1)
     )
     SELECT s.kind, s.gateway_id, g.name AS gateway_name, st.id AS site_id, st.name AS site_name,
            s.at, s.rssi, s.latitude, s.longitude, s.accuracy
       FROM s LEFT JOIN gateways g ON g.id = s.gateway_id
       LEFT JOIN gateway_places gp ON gp.gateway_id = s.gateway_id
       LEFT JOIN sites st ON st.id = gp.site_id`,
    [wearerId, at.toISOString(), PLACE_HISTORY_MINUTES, LAST_HEARD_HOURS],
  );
}
