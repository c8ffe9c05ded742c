import {
  type AlertCauseView,
  type AlertPlace,
  alertPlace,
  type AlertView,
  HEAT_PROCEDURE_STEPS,
} from '@wearable/domain';
import type { AlertRow } from './alerts.repository.js';

const iso = (v: Date | string | null): string | null =>
  v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString();

function causeOf(raw: unknown): AlertCauseView | null {
  if (!raw || typeof raw !== 'object') return null;
  const c = raw as Record<string, unknown>;
  const values = (
    c.values && typeof c.values === 'object' ? c.values : {}
  ) as AlertCauseView['values'];
  return {
    rule: typeof c.rule === 'string' ? c.rule : '',
    values,
    windowStart: typeof c.windowStart === 'string' ? c.windowStart : null,
    windowEnd: typeof c.windowEnd === 'string' ? c.windowEnd : null,
  };
}

/** An alert row as the API shows it (the alerts list, the live stream, webhooks). */
export function toAlertView(r: AlertRow): AlertView {
  return {
    id: r.id,
    type: r.type,
    level: r.level,
    status: r.status,
    openedAt: iso(r.opened_at) ?? '',
    closedAt: iso(r.closed_at),
    closeReason: r.close_reason,
    confirmedAt: iso(r.confirmed_at),
    confirmedBy: r.confirmed_by ? { uid: r.confirmed_by, name: r.confirmed_by_name ?? '' } : null,
    confirmReason: r.confirm_reason,
    confirmNote: r.confirm_note,
    procedureSteps: HEAT_PROCEDURE_STEPS.filter((s) => r.procedure_steps?.includes(s)),
    wearer: r.wearer_id === null ? null : { uid: r.wearer_id, name: r.wearer_name ?? '' },
    device:
      r.device_serial === null
        ? null
        : { serial: r.device_serial, gatewayId: r.gateway_id, gatewayName: r.gateway_name },
    groupId: r.group_id,
    groupName: r.group_name,
    clientId: r.organization_id,
    cause: causeOf(r.cause),
    notified: r.notify,
    place: placeOfRow(r.place),
  };
}

/** The stored place snapshot; anything unreadable counts as not recorded rather than failing a list. */
function placeOfRow(raw: unknown): AlertPlace | null {
  if (raw === null || raw === undefined) return null;
  const parsed = alertPlace.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
