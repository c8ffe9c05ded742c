import type { FallCause } from '@wearable/domain';
import { prepared, type Queryable } from '../../db/client.js';
import type { Statement } from '../../db/statement.js';

export interface GatewayCredentialRow {
  id: string;
  organizationId: string;
  credentialHash: string;
  type: string;
}

/** A bracelet of the gateway's organisation with what ingestion and the engine need. */
export interface BraceletRow {
  id: string;
  serialNumber: string;
  wearerId: string | null;
  gatewayId: string | null;
  groupId: string | null;
  timeZone: string;
  battery: number | null;
  /** NULL while a link to a gateway waits for that gateway to report the bracelet. */
  pairedAt: Date | null;
}

export interface EventRow {
  braceletId: string;
  wearerId: string;
  type: string;
  at: Date;
  /** The phone gateway's position when the event happened, if it sent one. */
  location: { latitude: number; longitude: number; accuracy: number; at: Date } | null;
  /** FALL: why the gateway sent it (impact, or man-down with its minutes), if it said. */
  cause: FallCause | null;
}

const INSERT_EVENTS = prepared(
  `INSERT INTO device_events (bracelet_id, wearer_id, organization_id, type, at, gateway_id,
                              latitude, longitude, location_accuracy, location_at, cause)
   SELECT b, w, $1, t, a, $2, lat, lon, acc, la, c::jsonb
     FROM unnest($3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::float8[],
                 $8::float8[], $9::real[], $10::timestamptz[], $11::text[])
          AS x(b, w, t, a, lat, lon, acc, la, c)
   ON CONFLICT DO NOTHING
   RETURNING bracelet_id AS "braceletId", type, at`,
);

/** Gateways are seen on every batch (sent with the batch's other writes, runCombined). */
export function touchGatewayStatement(gatewayId: string, at: Date): Statement {
  return {
    text: `UPDATE gateways SET last_seen_at = $2
      WHERE id = $1 AND (last_seen_at IS NULL OR last_seen_at < $2)`,
    params: [gatewayId, at.toISOString()],
  };
}

export function ingestionRepository(db: Queryable) {
  return {
    async findGatewayCredential(gatewayId: string): Promise<GatewayCredentialRow | null> {
      const rows = await db.query<GatewayCredentialRow>(
        `SELECT id, organization_id AS "organizationId", credential_hash AS "credentialHash", type
       FROM gateways WHERE id = $1`,
        [gatewayId],
      );
      return rows[0] ?? null;
    },

    async emergencyPhone(organizationId: string): Promise<string | null> {
      const rows = await db.query<{ emergencyPhone: string | null }>(
        'SELECT emergency_phone AS "emergencyPhone" FROM organizations WHERE id = $1',
        [organizationId],
      );
      return rows[0]?.emergencyPhone ?? null;
    },

    async findBraceletsBySerial(organizationId: string, serials: string[]): Promise<BraceletRow[]> {
      return db.query<BraceletRow>(
        `SELECT b.id, b.serial_number AS "serialNumber", b.wearer_id AS "wearerId",
            b.gateway_id AS "gatewayId", u.group_id AS "groupId", o.time_zone AS "timeZone",
            b.battery, b.paired_at AS "pairedAt"
       FROM bracelets b
       JOIN organizations o ON o.id = b.organization_id
       LEFT JOIN users u ON u.id = b.wearer_id
      WHERE b.organization_id = $1 AND b.serial_number = ANY($2::text[])`,
        [organizationId, serials],
      );
    },

    /** Stores device events once; returns the keys of the new ones (only those reach the engine). */
    async insertEvents(
      organizationId: string,
      gatewayId: string,
      rows: EventRow[],
    ): Promise<{ braceletId: string; type: string; at: Date }[]> {
      if (rows.length === 0) return [];
      return db.query(INSERT_EVENTS, [
        organizationId,
        gatewayId,
        rows.map((r) => r.braceletId),
        rows.map((r) => r.wearerId),
        rows.map((r) => r.type),
        rows.map((r) => r.at.toISOString()),
        rows.map((r) => r.location?.latitude ?? null),
        rows.map((r) => r.location?.longitude ?? null),
        rows.map((r) => r.location?.accuracy ?? null),
        rows.map((r) => r.location?.at.toISOString() ?? null),
        rows.map((r) => (r.cause ? JSON.stringify(r.cause) : null)),
      ]);
    },

    /** Keeps the gateway's status when newer than the stored one; false for an older or the same (a re-sent batch). */
    async storeGatewayStatus(
      gatewayId: string,
      s: { at: Date; battery?: number; charging?: boolean; appVersion?: string },
    ): Promise<boolean> {
      const rows = await db.query(
        `UPDATE gateways SET status_at = $2, status_battery = $3, status_charging = $4, status_app_version = $5
      WHERE id = $1 AND (status_at IS NULL OR status_at < $2) RETURNING 1`,
        [
          gatewayId,
          s.at.toISOString(),
          s.battery ?? null,
          s.charging ?? null,
          s.appVersion ?? null,
        ],
      );
      return rows.length === 1;
    },
  };
}

/** Bracelets report their battery with readings; only changed levels are written. */
export function updateBatteriesStatement(
  batteries: { braceletId: string; battery: number }[],
): Statement | null {
  if (batteries.length === 0) return null;
  return {
    text: `UPDATE bracelets b SET battery = x.battery
       FROM unnest($1::text[], $2::int[]) AS x(id, battery)
      WHERE b.id = x.id AND b.battery IS DISTINCT FROM x.battery`,
    params: [batteries.map((b) => b.braceletId), batteries.map((b) => b.battery)],
  };
}
