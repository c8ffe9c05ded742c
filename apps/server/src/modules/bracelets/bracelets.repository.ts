import type { GatewayType } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface BraceletRecord {
  id: string;
  organizationId: string;
  serialNumber: string;
  deviceName: string;
  model: string | null;
  firmware: string | null;
  battery: number | null;
  dutyCycle: number;
  appliedDutyCycle: number | null;
  configVersion: number;
  appliedConfigVersion: number;
  wearerId: string | null;
  gatewayId: string | null;
  gatewayName: string | null;
  gatewayType: GatewayType | null;
  pairedAt: Date | null;
}

const SELECT = `SELECT b.id, b.organization_id AS "organizationId", b.serial_number AS "serialNumber",
       b.device_name AS "deviceName", b.model, b.firmware, b.battery, b.heart_rate_duty_cycle AS "dutyCycle",
       b.applied_duty_cycle AS "appliedDutyCycle", b.config_version AS "configVersion",
       b.applied_config_version AS "appliedConfigVersion", b.wearer_id AS "wearerId", b.gateway_id AS "gatewayId",
       gw.name AS "gatewayName", gw.type AS "gatewayType", b.paired_at AS "pairedAt"
  FROM bracelets b LEFT JOIN gateways gw ON gw.id = b.gateway_id`;

export function braceletsRepository(db: Queryable) {
  return {
    async find(id: string): Promise<BraceletRecord | null> {
      return (await db.query<BraceletRecord>(`${SELECT} WHERE b.id = $1`, [id]))[0] ?? null;
    },
    async findBySerial(serialNumber: string, lock = false): Promise<BraceletRecord | null> {
      const rows = await db.query<BraceletRecord>(
        `${SELECT} WHERE b.serial_number = $1${lock ? ' FOR UPDATE OF b' : ''}`,
        [serialNumber],
      );
      return rows[0] ?? null;
    },
    async findByWearer(wearerId: string): Promise<BraceletRecord | null> {
      return (
        (await db.query<BraceletRecord>(`${SELECT} WHERE b.wearer_id = $1`, [wearerId]))[0] ?? null
      );
    },

    /** False when the serial number is taken (by any organisation: serial numbers are global). */
    async insert(
      row: {
        id: string;
        organizationId: string;
        serialNumber: string;
        deviceName: string;
        model?: string | null | undefined;
        firmware: string | null;
      },
      at: Date,
    ) {
      const rows = await db.query(
        `INSERT INTO bracelets (id, organization_id, serial_number, device_name, model, firmware, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (serial_number) DO NOTHING RETURNING id`,
        [
          row.id,
          row.organizationId,
          row.serialNumber,
          row.deviceName,
          row.model ?? null,
          row.firmware,
          at,
        ],
      );
      return rows.length === 1;
    },

    /** Ends the wearer's current period with the bracelet (history stays with them). */
    async endAssignment(braceletId: string, at: Date): Promise<void> {
      await db.query(
        'UPDATE bracelet_assignments SET ended_at = $2 WHERE bracelet_id = $1 AND ended_at IS NULL',
        [braceletId, at],
      );
      await db.query(
        'UPDATE bracelets SET wearer_id = NULL, gateway_id = NULL, paired_at = NULL WHERE id = $1',
        [braceletId],
      );
    },

    async startAssignment(braceletId: string, wearerId: string, at: Date): Promise<void> {
      await db.query('UPDATE bracelets SET wearer_id = $2 WHERE id = $1', [braceletId, wearerId]);
      await db.query(
        `INSERT INTO bracelet_assignments (bracelet_id, wearer_id, started_at) VALUES ($1, $2, $3)
         ON CONFLICT (bracelet_id, started_at) DO UPDATE SET wearer_id = EXCLUDED.wearer_id, ended_at = NULL`,
        [braceletId, wearerId, at],
      );
    },

    /** Links to a gateway; pairing is pending until that gateway reports the bracelet. */
    async linkGateway(
      braceletId: string,
      gatewayId: string,
      deviceName: string | undefined,
      at: Date,
    ): Promise<void> {
      await db.query(
        `UPDATE bracelets SET gateway_id = $2, linked_at = $3, paired_at = NULL, device_name = COALESCE($4, device_name)
          WHERE id = $1`,
        [braceletId, gatewayId, at, deviceName ?? null],
      );
    },

    async setModel(braceletId: string, model: string): Promise<void> {
      await db.query('UPDATE bracelets SET model = $2 WHERE id = $1', [braceletId, model]);
    },

    /** The bracelets of these serial numbers, any organisation's (serial numbers are global), locked. */
    async lockBySerials(serials: string[]): Promise<BraceletRecord[]> {
      if (!serials.length) return [];
      return db.query<BraceletRecord>(
        `${SELECT} WHERE b.serial_number = ANY($1::text[]) ORDER BY b.serial_number FOR UPDATE OF b`,
        [serials],
      );
    },

    /** Paired at once: a phone's own bracelet is heard by its gateway by definition. */
    async markPaired(braceletId: string, at: Date): Promise<void> {
      await db.query('UPDATE bracelets SET paired_at = $2 WHERE id = $1', [braceletId, at]);
    },

    async unlinkGateway(braceletId: string): Promise<void> {
      await db.query('UPDATE bracelets SET gateway_id = NULL, paired_at = NULL WHERE id = $1', [
        braceletId,
      ]);
    },

    /** A new duty cycle is a new configuration version, pending until the gateway acknowledges it. */
    async updateSetting(
      braceletId: string,
      patch: { deviceName?: string | undefined; dutyCycle?: number | undefined },
    ) {
      await db.query(
        `UPDATE bracelets SET device_name = COALESCE($2, device_name),
                applied_duty_cycle = COALESCE(applied_duty_cycle, heart_rate_duty_cycle),
                config_version = config_version + CASE WHEN $3::int IS NOT NULL AND $3 <> heart_rate_duty_cycle THEN 1 ELSE 0 END,
                heart_rate_duty_cycle = COALESCE($3, heart_rate_duty_cycle)
          WHERE id = $1`,
        [braceletId, patch.deviceName ?? null, patch.dutyCycle ?? null],
      );
    },
  };
}
