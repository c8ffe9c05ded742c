import {
  HEAT_ALERT_TYPES,
  type HeatContact,
  type HeatProcedureBody,
  type HeatProcedureStep,
  type AlertType,
  type ConfirmReason,
} from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

interface ProcedureRow {
  stop_work: string;
  cool_body: string;
  medical_care: string;
  emergency_contacts: string;
  hospital_name: string;
  hospital_address: string;
  hospital_phone: string;
  updated_at: Date | string;
  updated_by: string | null;
  updated_by_name: string | null;
}

export interface StoredProcedure {
  procedure: HeatProcedureBody;
  updatedAt: string;
  updatedBy: { uid: string; name: string } | null;
}

const toProcedure = (r: ProcedureRow): StoredProcedure => ({
  procedure: {
    stopWork: r.stop_work,
    coolBody: r.cool_body,
    medicalCare: r.medical_care,
    emergencyContacts: r.emergency_contacts,
    hospital: { name: r.hospital_name, address: r.hospital_address, phone: r.hospital_phone },
  },
  updatedAt: new Date(r.updated_at).toISOString(),
  updatedBy: r.updated_by ? { uid: r.updated_by, name: r.updated_by_name ?? '' } : null,
});

export interface GroupRow {
  id: string;
  name: string;
  organization_id: string;
  time_zone: string;
}

export interface HeatAlertRow {
  id: string;
  type: AlertType;
  opened_at: Date | string;
  wearer_name: string;
  confirmed_at: Date | string | null;
  confirmed_by_name: string | null;
  confirm_reason: ConfirmReason | null;
  procedure_steps: HeatProcedureStep[] | null;
  first_notice_at: Date | string | null;
}

export interface EnvironmentRow {
  gateway_id: string;
  at: Date | string;
  wbgt: number | null;
  temperature: number | null;
}

/** A site's heat procedure, its named contacts, and what the monthly heat-rule report reads. */
export function heatRuleRepository(db: Queryable) {
  return {
    async group(groupId: string): Promise<GroupRow | undefined> {
      const [row] = await db.query<GroupRow>(
        `SELECT g.id, g.name, g.organization_id, o.time_zone
           FROM groups g JOIN organizations o ON o.id = g.organization_id WHERE g.id = $1`,
        [groupId],
      );
      return row;
    },

    /** The local days of a month (YYYY-MM) in a time zone, each as [start, stop) instants. */
    async days(
      month: string,
      timeZone: string,
    ): Promise<{ date: string; start: Date; stop: Date }[]> {
      const rows = await db.query<{ date: string; start: Date | string; stop: Date | string }>(
        `SELECT to_char(d, 'YYYY-MM-DD') AS date, d AT TIME ZONE $2 AS start, (d + interval '1 day') AT TIME ZONE $2 AS stop
           FROM generate_series(($1 || '-01')::timestamp, ($1 || '-01')::timestamp + interval '1 month' - interval '1 day',
                                interval '1 day') AS d
          ORDER BY d`,
        [month, timeZone],
      );
      return rows.map((r) => ({ date: r.date, start: new Date(r.start), stop: new Date(r.stop) }));
    },

    async procedure(groupId: string): Promise<StoredProcedure | null> {
      const [row] = await db.query<ProcedureRow>(
        `SELECT p.*, u.name AS updated_by_name
           FROM group_heat_procedures p LEFT JOIN users u ON u.id = p.updated_by
          WHERE p.group_id = $1`,
        [groupId],
      );
      return row ? toProcedure(row) : null;
    },

    /** Writes the procedure (insert or replace); the caller's transaction also records the audit entry. */
    async save(
      groupId: string,
      organizationId: string,
      p: HeatProcedureBody,
      by: string,
      at: Date,
    ): Promise<void> {
      await db.query(
        `INSERT INTO group_heat_procedures (group_id, organization_id, stop_work, cool_body, medical_care,
                                            emergency_contacts, hospital_name, hospital_address, hospital_phone,
                                            updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (group_id) DO UPDATE SET
           stop_work = EXCLUDED.stop_work, cool_body = EXCLUDED.cool_body, medical_care = EXCLUDED.medical_care,
           emergency_contacts = EXCLUDED.emergency_contacts, hospital_name = EXCLUDED.hospital_name,
           hospital_address = EXCLUDED.hospital_address, hospital_phone = EXCLUDED.hospital_phone,
           updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
        [
          groupId,
          organizationId,
          p.stopWork,
          p.coolBody,
          p.medicalCare,
          p.emergencyContacts,
          p.hospital.name,
          p.hospital.address,
          p.hospital.phone,
          at,
          by,
        ],
      );
    },

    /** The group's named contacts: its alert notice recipients of any heat alert type, in escalation order. */
    async contacts(groupId: string): Promise<HeatContact[]> {
      return db.query<HeatContact>(
        `SELECT u.name AS name, COALESCE(s.phone_number, u.phone_number) AS "phoneNumber", s.channel, s.step AS "order"
           FROM group_alert_notice_settings s
           LEFT JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
          WHERE s.group_id = $1 AND (s.user_id IS NULL OR u.id IS NOT NULL)
            AND s.alert_types ?| $2::text[]
          ORDER BY s.step, s.position`,
        [groupId, [...HEAT_ALERT_TYPES]],
      );
    },

    /** Heat alerts raised in the group in [from, to), with their first notice and confirmation. */
    async heatAlerts(groupId: string, from: Date, to: Date): Promise<HeatAlertRow[]> {
      return db.query<HeatAlertRow>(
        `SELECT a.id, a.type, a.opened_at, u.name AS wearer_name, a.confirmed_at, cb.name AS confirmed_by_name,
                a.confirm_reason, a.procedure_steps,
                (SELECT min(n.sent_at) FROM notifications n WHERE n.alert_id = a.id) AS first_notice_at
           FROM alerts a
           JOIN users u ON u.id = a.wearer_id
           LEFT JOIN users cb ON cb.id = a.confirmed_by
          WHERE a.group_id = $1 AND a.type = ANY($2::text[]) AND a.opened_at >= $3 AND a.opened_at < $4
          ORDER BY a.opened_at, a.id`,
        [groupId, [...HEAT_ALERT_TYPES], from, to],
      );
    },

    /**
     * Environment readings of the group's gateways in [from, to), plus each gateway's last reading
     * before `from` (it covers the first minutes of the period).
     */
    async environment(
      groupId: string,
      from: Date,
      to: Date,
    ): Promise<{ gatewayIds: string[]; rows: EnvironmentRow[] }> {
      const gateways = await db.query<{ id: string }>(
        'SELECT id FROM gateways WHERE group_id = $1 ORDER BY id',
        [groupId],
      );
      const ids = gateways.map((g) => g.id);
      if (!ids.length) return { gatewayIds: [], rows: [] };
      const rows = await db.query<EnvironmentRow>(
        `SELECT e.gateway_id, e.at, e.wbgt, e.temperature FROM environment_readings e
          WHERE e.gateway_id = ANY($1::text[]) AND e.at >= $2 AND e.at < $3
         UNION ALL
         SELECT b.gateway_id, b.at, b.wbgt, b.temperature FROM unnest($1::text[]) AS g(id)
           CROSS JOIN LATERAL (SELECT e.gateway_id, e.at, e.wbgt, e.temperature FROM environment_readings e
                                WHERE e.gateway_id = g.id AND e.at < $2 ORDER BY e.at DESC LIMIT 1) b
         ORDER BY 1, 2`,
        [ids, from, to],
      );
      return { gatewayIds: ids, rows };
    },
  };
}
