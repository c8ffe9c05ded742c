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
 * Writes the folded states (a statement for the batch's combined round trip). The rows go as one
 * JSON parameter, put together from texts that are already JSON: no text[] literal to escape on
 * the server and to unescape in the database, and one jsonb parse for the batch instead of one per
 * row (issue 17: the fold's cost per reading).
 */
export function savePlacesStatement(
  organizationId: string,
  rows: { wearerId: string; stateJson: string; positionJson: string | null }[],
): { text: string; params: unknown[] } | null {
  if (rows.length === 0) return null;
  let json = '[';
  for (const r of rows) {
    if (json.length > 1) json += ',';
    json += `{"w":${JSON.stringify(r.wearerId)},"s":${r.stateJson},"p":${r.positionJson ?? 'null'}}`;
  }
  json += ']';
  return {
    text: `INSERT INTO wearer_places AS w (wearer_id, organization_id, state, position, updated_at)
     SELECT x.w, $1, x.s, x.p, now()
       FROM jsonb_to_recordset($2::jsonb) AS x(w text, s jsonb, p jsonb)
     ON CONFLICT (wearer_id) DO UPDATE SET
       organization_id = excluded.organization_id,
       state = excluded.state,
       position = coalesce(excluded.position, w.position),
       updated_at = now()`,
    params: [organizationId, json],
  };
}

export interface MapWearerRow {
  wearerId: string;
  name: string;
  groupId: string | null;
  state: unknown;
  position: unknown;
}

export interface OpenAlertRow {
  alertId: string;
  wearerId: string;
  type: string;
  level: string;
  openedAt: Date | string;
}

export interface TrailRow {
  kind: 'sighting' | 'position';
  gateway_id: string | null;
  gateway_name: string | null;
  site_name: string | null;
  at: Date | string;
  latitude: number | null;
  longitude: number | null;
  accuracy: number | null;
}

export function placesRepository(db: Queryable) {
  return {
    /**
     * One round trip: the wearer's sightings up to `at` (readings with the gateway that sent them and
     * its signal strength, device events with theirs) of the last PLACE_HISTORY_MINUTES, the newest one
     * before them (for "last heard"), and the newest phone position; each with its gateway's name and
     * the site it is placed on (the zone "<site> · <gateway>").
     */
    sightingsUpTo(wearerId: string, at: Date): Promise<SightingRow[]> {
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
    },

    /**
     * The map's rows: every wearer the scope condition admits (alias u), with their stored place.
     * Read as one JSON text for the whole scope, parsed once here: 10,000 rows of five fields each
     * cost PGlite (whose query holds the server's thread) a third more as rows than as one text.
     */
    async mapWearers(scope: string, params: unknown[]): Promise<MapWearerRow[]> {
      const [row] = await db.query<{ rows: string }>(
        `SELECT coalesce(json_agg(json_build_array(u.id, u.name, u.group_id, wp.state, wp.position))::text, '[]')
                AS rows
           FROM users u LEFT JOIN wearer_places wp ON wp.wearer_id = u.id
          WHERE ${scope}`,
        params,
      );
      const rows = JSON.parse(row?.rows ?? '[]') as [
        string,
        string,
        string | null,
        unknown,
        unknown,
      ][];
      return rows.map(([wearerId, name, groupId, state, position]) => ({
        wearerId,
        name,
        groupId,
        state,
        position,
      }));
    },

    /** The organisation's open alerts (few; the map keeps those of the wearers it shows). */
    openAlertsOf(organizationId: string): Promise<OpenAlertRow[]> {
      return db.query<OpenAlertRow>(
        `SELECT id AS "alertId", wearer_id AS "wearerId", type, level, opened_at AS "openedAt"
       FROM alerts WHERE organization_id = $1 AND status = 'OPEN'`,
        [organizationId],
      );
    },

    /** Names of gateways with the site each is placed on now, and names of groups. */
    async namesOf(
      organizationId: string,
      gatewayIds: string[],
    ): Promise<{
      gateways: {
        gatewayId: string;
        name: string;
        siteId: string | null;
        siteName: string | null;
      }[];
      groups: { groupId: string; name: string }[];
    }> {
      const [gateways, groups] = await Promise.all([
        placesRepository(db).gatewayZones(gatewayIds),
        db.query<{ groupId: string; name: string }>(
          'SELECT id AS "groupId", name FROM groups WHERE organization_id = $1',
          [organizationId],
        ),
      ]);
      return { gateways, groups };
    },

    /** The organisation's place privacy (organizations.places_only_during_alerts); false if unknown. */
    async placesOnlyDuringAlerts(organizationId: string): Promise<boolean> {
      const [row] = await db.query<{ only: boolean }>(
        'SELECT places_only_during_alerts AS only FROM organizations WHERE id = $1',
        [organizationId],
      );
      return row?.only ?? false;
    },

    /** Sets it under the organisation's row lock; returns the value before. */
    async setPlacesOnlyDuringAlerts(organizationId: string, only: boolean): Promise<boolean> {
      const [before] = await db.query<{ only: boolean }>(
        'SELECT places_only_during_alerts AS only FROM organizations WHERE id = $1 FOR UPDATE',
        [organizationId],
      );
      await db.query('UPDATE organizations SET places_only_during_alerts = $2 WHERE id = $1', [
        organizationId,
        only,
      ]);
      return before?.only ?? false;
    },

    /** Gateways' names with the site each is placed on now (the zone "<site> · <gateway>"). */
    gatewayZones(
      gatewayIds: string[],
    ): Promise<
      { gatewayId: string; name: string; siteId: string | null; siteName: string | null }[]
    > {
      if (gatewayIds.length === 0) return Promise.resolve([]);
      return db.query(
        `SELECT g.id AS "gatewayId", g.name, st.id AS "siteId", st.name AS "siteName"
       FROM gateways g LEFT JOIN gateway_places gp ON gp.gateway_id = g.id
       LEFT JOIN sites st ON st.id = gp.site_id
      WHERE g.id = ANY($1::text[])`,
        [gatewayIds],
      );
    },

    /**
     * A wearer's trail since `from`: phone positions and the gateways that delivered their readings,
     * oldest first (each at most 2,000 rows, the newest kept), with the gateway's name and site.
     */
    trailOf(wearerId: string, from: Date): Promise<TrailRow[]> {
      return db.query<TrailRow>(
        `WITH s AS (
       (SELECT 'sighting' AS kind, gateway_id, at,
               NULL::float8 AS latitude, NULL::float8 AS longitude, NULL::float8 AS accuracy
          FROM readings
         WHERE wearer_id = $1 AND gateway_id IS NOT NULL AND at > $2::timestamptz
         ORDER BY at DESC LIMIT 2000)
       UNION ALL
       (SELECT 'position', gateway_id, at, latitude, longitude, accuracy::float8
          FROM wearer_positions
         WHERE wearer_id = $1 AND at > $2::timestamptz
         ORDER BY at DESC LIMIT 2000)
     )
     SELECT s.kind, s.gateway_id, g.name AS gateway_name, st.name AS site_name,
            s.at, s.latitude, s.longitude, s.accuracy
       FROM s LEFT JOIN gateways g ON g.id = s.gateway_id
       LEFT JOIN gateway_places gp ON gp.gateway_id = s.gateway_id
       LEFT JOIN sites st ON st.id = gp.site_id
      ORDER BY s.at`,
        [wearerId, from.toISOString()],
      );
    },

    /** The organisation of a wearer (the access layer has already found it). */
    async organizationOfWearer(wearerId: string): Promise<string> {
      const [row] = await db.query<{ id: string }>(
        'SELECT organization_id AS id FROM users WHERE id = $1',
        [wearerId],
      );
      return row?.id ?? '';
    },
  };
}
