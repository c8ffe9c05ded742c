import type { Actor, AlertLevel, AlertType, ConfirmReason } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { alertScope, SqlParams } from '../../access/scope-sql.js';

export interface AlertFilter {
  notConfirmed: boolean;
  types: AlertType[];
  level?: AlertLevel | undefined;
  status?: 'OPEN' | 'CLOSED' | undefined;
  from?: string | undefined;
  to?: string | undefined;
  groupId?: string | undefined;
  wearerId?: string | undefined;
  organizationId?: string | undefined;
}

export interface AlertRow {
  id: string;
  type: AlertType;
  level: AlertLevel;
  status: 'OPEN' | 'CLOSED';
  opened_at: Date | string;
  closed_at: Date | string | null;
  close_reason: string | null;
  confirmed_at: Date | string | null;
  confirmed_by: string | null;
  confirmed_by_name: string | null;
  confirm_reason: ConfirmReason | null;
  confirm_note: string | null;
  procedure_steps: string[] | null;
  /** Null (and the name too) on an alert of a device no wearer holds (issue 34). */
  wearer_id: string | null;
  wearer_name: string | null;
  device_serial: string | null;
  gateway_id: string | null;
  gateway_name: string | null;
  group_id: string | null;
  group_name: string | null;
  organization_id: string;
  time_zone: string;
  cause: unknown;
  notify: boolean;
  snooze_id?: string | null;
  place: unknown;
}

export const ALERT_SELECT = `
  SELECT a.id, a.type, a.level, a.status, a.opened_at, a.closed_at, a.close_reason,
         a.confirmed_at, a.confirmed_by, cb.name AS confirmed_by_name, a.confirm_reason, a.confirm_note,
         a.procedure_steps,
         a.wearer_id, u.name AS wearer_name, a.group_id, g.name AS group_name,
         a.organization_id, o.time_zone, a.cause, a.notify, a.snooze_id, a.place,
         a.device_serial, a.gateway_id, gw.name AS gateway_name
    FROM alerts a
    LEFT JOIN users u ON u.id = a.wearer_id
    JOIN organizations o ON o.id = a.organization_id
    LEFT JOIN groups g ON g.id = a.group_id
    LEFT JOIN gateways gw ON gw.id = a.gateway_id
    LEFT JOIN users cb ON cb.id = a.confirmed_by`;

/** WHERE clause: the actor's scope (a group manager sees alerts of their groups then or now). */
function whereOf(actor: Actor, f: AlertFilter, p: SqlParams): string {
  const w = [alertScope(actor, p, { organizationId: f.organizationId, wearerId: f.wearerId })];
  if (f.notConfirmed) w.push('a.confirmed_at IS NULL');
  if (f.types.length) w.push(`a.type = ANY(${p.add(f.types)}::text[])`);
  if (f.level) w.push(`a.level = ${p.add(f.level)}`);
  if (f.status) w.push(`a.status = ${p.add(f.status)}`);
  if (f.from) w.push(`a.opened_at >= ${p.add(f.from)}::timestamptz`);
  if (f.to) w.push(`a.opened_at < ${p.add(f.to)}::timestamptz`);
  if (f.groupId) w.push(`a.group_id = ${p.add(f.groupId)}`);
  return w.join(' AND ');
}

export function alertsRepository(db: Queryable) {
  return {
    async listAlerts(
      actor: Actor,
      f: AlertFilter,
      limit: number,
      offset: number,
    ): Promise<{ rows: AlertRow[]; total: number }> {
      const p = new SqlParams();
      const where = whereOf(actor, f, p);
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM alerts a LEFT JOIN users u ON u.id = a.wearer_id WHERE ${where}`,
        p.values,
      );
      const rows = await db.query<AlertRow>(
        `${ALERT_SELECT} WHERE ${where} ORDER BY a.opened_at DESC, a.id LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`,
        p.values,
      );
      return { rows, total: count?.n ?? 0 };
    },

    /** One alert without scoping, for the live stream (which filters per client). */
    async getAlert(id: string): Promise<AlertRow | undefined> {
      const [row] = await db.query<AlertRow>(`${ALERT_SELECT} WHERE a.id = $1`, [id]);
      return row;
    },

    /** An organisation's IANA time zone, or null for an unknown id (or none). */
    async organizationTimeZone(organizationId: string | null): Promise<string | null> {
      if (organizationId === null) return null;
      const rows = await db.query<{ time_zone: string }>(
        'SELECT time_zone FROM organizations WHERE id = $1',
        [organizationId],
      );
      return rows[0]?.time_zone ?? null;
    },
  };
}
