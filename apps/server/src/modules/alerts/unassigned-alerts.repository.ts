import type { AlertPlace } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { ALERT_COLUMNS } from './alert-writes.repository.js';
import type { AlertRecord } from '../../bus/events.js';
import type { AlertCause } from '../../engine/types.js';

/** An SOS or fall of a device no wearer holds, as stored (unassigned_device_events). */
export interface UnassignedEventRow {
  serialNumber: string;
  braceletId: string | null;
  type: 'SOS' | 'FALL';
  at: Date;
}

/** The gateway that heard it: its group (the alert's) and where it is placed. */
export interface GatewayWhere {
  name: string;
  groupId: string | null;
  siteId: string | null;
  siteName: string | null;
}

/** The SQL of alerts of devices no wearer holds (issue 34), in the caller's transaction. */
export function unassignedAlertsRepository(tx: Queryable) {
  return {
    /** Stores the events once; returns those new now (a gateway's resend returns nothing). */
    async insertEvents(
      organizationId: string,
      gatewayId: string,
      events: readonly UnassignedEventRow[],
    ): Promise<UnassignedEventRow[]> {
      if (events.length === 0) return [];
      return tx.query<UnassignedEventRow>(
        `INSERT INTO unassigned_device_events (organization_id, serial_number, type, at, gateway_id, bracelet_id)
         SELECT $1, x.s, x.t, x.a, $2, x.b
           FROM unnest($3::text[], $4::text[], $5::timestamptz[], $6::text[]) AS x(s, t, a, b)
         ON CONFLICT DO NOTHING
         RETURNING serial_number AS "serialNumber", bracelet_id AS "braceletId", type, at`,
        [
          organizationId,
          gatewayId,
          events.map((e) => e.serialNumber),
          events.map((e) => e.type),
          events.map((e) => e.at.toISOString()),
          events.map((e) => e.braceletId),
        ],
      );
    },

    async gatewayWhere(gatewayId: string): Promise<GatewayWhere | undefined> {
      const [row] = await tx.query<GatewayWhere>(
        `SELECT g.name, g.group_id AS "groupId", s.id AS "siteId", s.name AS "siteName"
           FROM gateways g
           LEFT JOIN gateway_places gp ON gp.gateway_id = g.id
           LEFT JOIN sites s ON s.id = gp.site_id
          WHERE g.id = $1`,
        [gatewayId],
      );
      return row;
    },

    /** Opens the alert unless one of this device and type is open (then null: the same incident). */
    async insertOpenAlert(a: {
      id: string;
      organizationId: string;
      groupId: string | null;
      gatewayId: string;
      serialNumber: string;
      braceletId: string | null;
      type: 'SOS_CALL' | 'DETECT_FALL_DOWN';
      openedAt: Date;
      cause: AlertCause;
      place: AlertPlace;
    }): Promise<AlertRecord | null> {
      const rows = await tx.query<AlertRecord>(
        `INSERT INTO alerts (id, organization_id, group_id, wearer_id, bracelet_id, device_serial, gateway_id,
                             type, level, status, opened_at, cause, notify, place)
         VALUES ($1, $2, $3, NULL, $4, $5, $6, $7, 'EMERGENCY', 'OPEN', $8, $9::jsonb, true, $10::jsonb)
         ON CONFLICT (organization_id, device_serial, type) WHERE status = 'OPEN' AND wearer_id IS NULL
         DO NOTHING
         RETURNING ${ALERT_COLUMNS}`,
        [
          a.id,
          a.organizationId,
          a.groupId,
          a.braceletId,
          a.serialNumber,
          a.gatewayId,
          a.type,
          a.openedAt.toISOString(),
          JSON.stringify(a.cause),
          JSON.stringify(a.place),
        ],
      );
      return rows[0] ?? null;
    },

    /** Which alert each event opened (or joined, while one was open), for the record. */
    async linkEvent(organizationId: string, e: UnassignedEventRow, alertId: string): Promise<void> {
      await tx.query(
        `UPDATE unassigned_device_events SET alert_id = $5
          WHERE organization_id = $1 AND serial_number = $2 AND type = $3 AND at = $4`,
        [organizationId, e.serialNumber, e.type, e.at.toISOString(), alertId],
      );
    },

    /** The open alert of this device and type, if any. */
    async openAlertId(
      organizationId: string,
      serialNumber: string,
      type: string,
    ): Promise<string | null> {
      const [row] = await tx.query<{ id: string }>(
        `SELECT id FROM alerts WHERE organization_id = $1 AND device_serial = $2 AND type = $3
            AND status = 'OPEN' AND wearer_id IS NULL`,
        [organizationId, serialNumber, type],
      );
      return row?.id ?? null;
    },
  };
}
