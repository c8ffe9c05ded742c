import type { GatewayKind } from '@wearable/domain';
import type { SightingFrame } from '../../adapters/adapter-output.js';
import { prepared, type Queryable } from '../../db/client.js';

export interface VendorGatewayRow {
  organizationId: string;
  kind: GatewayKind;
  /** Hex SHA-256 of the secret path segment, for kinds that have one. */
  pathSecretHash: string | null;
}

export interface UnknownDeviceRow {
  deviceId: string;
  frame: string;
  rssi: number | null;
  beaconId: string | null;
  firstHeardAt: Date;
  lastHeardAt: Date;
  timesHeard: number;
}

/** A device a gateway heard and did not know, as the in-memory buffer gathers it between writes. */
export interface HeardDevice {
  gatewayId: string;
  deviceId: string;
  frame: SightingFrame;
  rssi: number | null;
  beaconId: string | null;
  /** ISO 8601 (UTC). */
  firstHeardAt: string;
  lastHeardAt: string;
  /** In how many requests it was heard. */
  times: number;
}

/** Run on every vendor request: parsed once (a named statement on both databases). */
const TAKE_TOKENS = prepared(
  `INSERT INTO gateway_rate_buckets AS b (gateway_id, tokens, at)
   SELECT $1, $3::float8 - $2::float8, $5::timestamptz WHERE $2::float8 <= $3::float8
 ON CONFLICT (gateway_id) DO UPDATE
   SET tokens = LEAST($3::float8, b.tokens + $4::float8 * GREATEST(0, extract(epoch FROM ($5::timestamptz - b.at)))) - $2::float8,
       at = GREATEST(b.at, $5::timestamptz)
   WHERE LEAST($3::float8, b.tokens + $4::float8 * GREATEST(0, extract(epoch FROM ($5::timestamptz - b.at)))) >= $2::float8
 RETURNING tokens`,
);

export function vendorGatewaysRepository(db: Queryable) {
  return {
    async find(gatewayId: string): Promise<VendorGatewayRow | null> {
      const rows = await db.query<VendorGatewayRow>(
        `SELECT organization_id AS "organizationId", kind, path_secret_hash AS "pathSecretHash"
           FROM gateways WHERE id = $1`,
        [gatewayId],
      );
      return rows[0] ?? null;
    },

    async setKind(gatewayId: string, kind: GatewayKind, pathSecretHash: string | null) {
      await db.query('UPDATE gateways SET kind = $2, path_secret_hash = $3 WHERE id = $1', [
        gatewayId,
        kind,
        pathSecretHash,
      ]);
    },

    async setPathSecretHash(gatewayId: string, pathSecretHash: string | null) {
      await db.query('UPDATE gateways SET path_secret_hash = $2 WHERE id = $1', [
        gatewayId,
        pathSecretHash,
      ]);
    },

    /** The organisation whose bracelet has each of these device ids as serial number (unique across organisations). */
    async ownersOf(deviceIds: string[]): Promise<Map<string, string>> {
      if (deviceIds.length === 0) return new Map();
      const rows = await db.query<{ serialNumber: string; organizationId: string }>(
        `SELECT serial_number AS "serialNumber", organization_id AS "organizationId"
           FROM bracelets WHERE serial_number = ANY($1::text[])`,
        [deviceIds],
      );
      return new Map(rows.map((r) => [r.serialNumber, r.organizationId]));
    },

    /**
     * Takes `cost` tokens from the gateway's bucket (refilled at `rate` a second up to `burst`) in
     * one statement: the row lock of the upsert serialises concurrent requests on every server.
     * Answers the tokens left, or null when there were not enough (nothing taken).
     */
    async takeTokens(
      gatewayId: string,
      cost: number,
      rate: number,
      burst: number,
      now: Date,
    ): Promise<number | null> {
      const rows = await db.query<{ tokens: number }>(TAKE_TOKENS, [
        gatewayId,
        cost,
        burst,
        rate,
        now,
      ]);
      return rows[0]?.tokens ?? null;
    },

    /**
     * Writes what the gateways heard and did not know since the last write (one row per gateway and
     * device: its latest sighting, when first and last heard, in how many requests), then keeps
     * only the `cap` most recently heard of each of these gateways: the list never grows beyond it.
     * A gateway deleted meanwhile is skipped.
     */
    async recordUnknown(devices: HeardDevice[], cap: number): Promise<void> {
      if (devices.length === 0) return;
      await db.query(
        `INSERT INTO unknown_devices AS u
           (gateway_id, device_id, frame, rssi, beacon_id, first_heard_at, last_heard_at, times_heard)
         SELECT d.gateway_id, d.device_id, d.frame, d.rssi, d.beacon_id, d.first_at, d.last_at, d.times
           FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::timestamptz[],
                       $7::timestamptz[], $8::int[])
             AS d(gateway_id, device_id, frame, rssi, beacon_id, first_at, last_at, times)
           JOIN gateways g ON g.id = d.gateway_id
         ON CONFLICT (gateway_id, device_id) DO UPDATE
           SET frame = EXCLUDED.frame, rssi = EXCLUDED.rssi, beacon_id = EXCLUDED.beacon_id,
               last_heard_at = GREATEST(u.last_heard_at, EXCLUDED.last_heard_at),
               times_heard = u.times_heard + EXCLUDED.times_heard`,
        [
          devices.map((d) => d.gatewayId),
          devices.map((d) => d.deviceId),
          devices.map((d) => d.frame),
          devices.map((d) => (d.rssi === null ? null : Math.round(d.rssi))),
          devices.map((d) => d.beaconId),
          devices.map((d) => d.firstHeardAt),
          devices.map((d) => d.lastHeardAt),
          devices.map((d) => d.times),
        ],
      );
      await db.query(
        `DELETE FROM unknown_devices u USING (
           SELECT gateway_id, device_id,
                  row_number() OVER (PARTITION BY gateway_id ORDER BY last_heard_at DESC, device_id) AS n
             FROM unknown_devices WHERE gateway_id = ANY($1::text[])) r
          WHERE u.gateway_id = r.gateway_id AND u.device_id = r.device_id AND r.n > $2`,
        [[...new Set(devices.map((d) => d.gatewayId))], cap],
      );
    },

    async listUnknown(gatewayId: string, cap: number): Promise<UnknownDeviceRow[]> {
      return db.query<UnknownDeviceRow>(
        `SELECT device_id AS "deviceId", frame, rssi, beacon_id AS "beaconId",
                first_heard_at AS "firstHeardAt", last_heard_at AS "lastHeardAt",
                times_heard::int AS "timesHeard"
           FROM unknown_devices WHERE gateway_id = $1
          ORDER BY last_heard_at DESC, device_id LIMIT $2`,
        [gatewayId, cap],
      );
    },

    async forgetUnknown(organizationId: string, deviceId: string): Promise<void> {
      // Registered for the organisation: heard by none of its gateways as unknown any more.
      await db.query(
        `DELETE FROM unknown_devices u USING gateways g
          WHERE g.id = u.gateway_id AND g.organization_id = $1 AND u.device_id = $2`,
        [organizationId, deviceId],
      );
    },
  };
}
