import type { GatewayKind, GatewayType } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface GatewayRow {
  id: string;
  organizationId: string;
  name: string;
  type: GatewayType;
  kind: GatewayKind;
  serialNumber: string;
  groupId: string | null;
  groupName: string | null;
  lastSeenAt: Date | null;
  braceletCount: number;
  /** The list and the detail read it (gateway-refusals); absent elsewhere. */
  lastRefusalAt?: Date | null;
  statusAt: Date | null;
  statusBattery: number | null;
  statusCharging: boolean | null;
  statusAppVersion: string | null;
  phoneShared: boolean;
  phoneWearerId: string | null;
  phoneWearerName: string | null;
  phoneFailure: { at: string; type: 'SOS' | 'FALL'; reason: string } | null;
}

const SELECT = `SELECT gw.id, gw.organization_id AS "organizationId", gw.name, gw.type, gw.kind,
       gw.serial_number AS "serialNumber", gw.group_id AS "groupId", g.name AS "groupName",
       gw.last_seen_at AS "lastSeenAt", gw.status_at AS "statusAt", gw.status_battery AS "statusBattery",
       gw.status_charging AS "statusCharging", gw.status_app_version AS "statusAppVersion",
       (SELECT count(*)::int FROM bracelets b WHERE b.gateway_id = gw.id) AS "braceletCount",
       (SELECT max(r.last_at) FROM gateway_refusals r WHERE r.gateway_id = gw.id) AS "lastRefusalAt",
       gw.phone_shared AS "phoneShared", gw.phone_wearer_id AS "phoneWearerId",
       pw.name AS "phoneWearerName", gw.phone_failure AS "phoneFailure"
  FROM gateways gw LEFT JOIN groups g ON g.id = gw.group_id
  LEFT JOIN users pw ON pw.id = gw.phone_wearer_id AND pw.deleted_at IS NULL`;

export interface BraceletBehind {
  wearableId: string;
  serialNumber: string;
  deviceName: string;
  uid: string | null;
  name: string | null;
  battery: number | null;
  pairedAt: Date | null;
}

export function gatewaysRepository(db: Queryable) {
  return {
    async list(organizationId: string, groupId?: string): Promise<GatewayRow[]> {
      return db.query<GatewayRow>(
        `${SELECT} WHERE gw.organization_id = $1 AND ($2::text IS NULL OR gw.group_id = $2)
          ORDER BY gw.name, gw.id`,
        [organizationId, groupId ?? null],
      );
    },

    async find(id: string): Promise<GatewayRow | null> {
      return (await db.query<GatewayRow>(`${SELECT} WHERE gw.id = $1`, [id]))[0] ?? null;
    },

    /** Who carries a SMARTPHONE gateway's phone: a wearer, or shared (and the person chosen on it). */
    async setPhoneCarrier(
      gatewayId: string,
      carrier: { shared: boolean; wearerId: string | null },
    ): Promise<void> {
      await db.query('UPDATE gateways SET phone_shared = $2, phone_wearer_id = $3 WHERE id = $1', [
        gatewayId,
        carrier.shared,
        carrier.wearerId,
      ]);
    },

    /** The last SOS or fall the phone could not deliver, shown to staff on the gateway. */
    async setPhoneFailure(
      gatewayId: string,
      failure: { at: string; type: 'SOS' | 'FALL'; reason: string; reportedAt: string },
    ): Promise<void> {
      await db.query('UPDATE gateways SET phone_failure = $2::jsonb WHERE id = $1', [
        gatewayId,
        JSON.stringify(failure),
      ]);
    },

    async serialTaken(serialNumber: string): Promise<boolean> {
      return (
        (await db.query('SELECT 1 FROM gateways WHERE serial_number = $1', [serialNumber])).length >
        0
      );
    },

    /** False when the serial number was taken meanwhile (unique index). */
    async insert(row: {
      id: string;
      organizationId: string;
      groupId: string | null;
      type: GatewayType;
      kind: GatewayKind;
      serialNumber: string;
      name: string;
      credentialHash: string;
      pathSecretHash: string | null;
      at: Date;
    }): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO gateways (id, organization_id, group_id, type, serial_number, name, credential_hash, created_at, kind, path_secret_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (serial_number) DO NOTHING RETURNING id`,
        [
          row.id,
          row.organizationId,
          row.groupId,
          row.type,
          row.serialNumber,
          row.name,
          row.credentialHash,
          row.at,
          row.kind,
          row.pathSecretHash,
        ],
      );
      return rows.length === 1;
    },

    async update(
      id: string,
      patch: { name?: string | undefined; groupId?: string | null | undefined },
    ): Promise<void> {
      await db.query(
        `UPDATE gateways SET name = COALESCE($2, name),
                group_id = CASE WHEN $3::boolean THEN $4 ELSE group_id END WHERE id = $1`,
        [id, patch.name ?? null, patch.groupId !== undefined, patch.groupId ?? null],
      );
    },

    /** A new credential hash, and a new secret-path hash for kinds that have one (else unchanged). */
    async setCredentialHash(
      id: string,
      credentialHash: string,
      pathSecretHash: string | null = null,
    ): Promise<void> {
      await db.query(
        'UPDATE gateways SET credential_hash = $2, path_secret_hash = COALESCE($3, path_secret_hash) WHERE id = $1',
        [id, credentialHash, pathSecretHash],
      );
    },

    /**
     * Deletes the gateway; its bracelets stay with their wearers, linked to no gateway and no longer paired.
     * Environment readings stay until the retention deletes them. Answers the bracelets unlinked.
     */
    async remove(id: string) {
      const unlinked = await db.query<{
        serialNumber: string;
        wearerId: string | null;
        groupId: string | null;
      }>(
        `UPDATE bracelets b SET gateway_id = NULL, linked_at = NULL, paired_at = NULL WHERE b.gateway_id = $1
         RETURNING b.serial_number AS "serialNumber", b.wearer_id AS "wearerId",
                   (SELECT u.group_id FROM users u WHERE u.id = b.wearer_id) AS "groupId"`,
        [id],
      );
      await db.query('DELETE FROM gateways WHERE id = $1', [id]);
      return unlinked;
    },

    async braceletsBehind(gatewayId: string): Promise<BraceletBehind[]> {
      return db.query<BraceletBehind>(
        `SELECT b.id AS "wearableId", b.serial_number AS "serialNumber", b.device_name AS "deviceName",
                b.wearer_id AS uid, u.name, b.battery, b.paired_at AS "pairedAt"
           FROM bracelets b LEFT JOIN users u ON u.id = b.wearer_id
          WHERE b.gateway_id = $1 ORDER BY b.serial_number`,
        [gatewayId],
      );
    },

    /** Environment readings of a period, averaged into at most `points` buckets. */
    async environment(gatewayId: string, from: Date, to: Date, points: number) {
      const bucketMs = Math.max(1000, Math.ceil((to.getTime() - from.getTime()) / points));
      return db.query<{
        at: Date;
        temperature: number | null;
        humidity: number | null;
        wbgt: number | null;
      }>(
        `SELECT to_timestamp(floor(extract(epoch FROM at) * 1000 / $4) * $4 / 1000.0) AS at,
                avg(temperature)::float8 AS temperature, avg(humidity)::float8 AS humidity, avg(wbgt)::float8 AS wbgt
           FROM environment_readings
          WHERE gateway_id = $1 AND at >= $2 AND at <= $3
          GROUP BY 1 ORDER BY 1`,
        [gatewayId, from, to, bucketMs],
      );
    },

    async latestEnvironment(gatewayId: string) {
      const rows = await db.query<{
        at: Date;
        temperature: number | null;
        humidity: number | null;
        wbgt: number | null;
      }>(
        `SELECT at, temperature, humidity, wbgt FROM environment_readings
          WHERE gateway_id = $1 ORDER BY at DESC LIMIT 1`,
        [gatewayId],
      );
      return rows[0] ?? null;
    },
  };
}
