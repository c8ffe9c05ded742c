import type { AppContext } from '../../context.js';
import { withLaneHint } from '../../db/priority-lane.js';
import type { AlertRecord } from '../../bus/events.js';
import { type AlertRow, alertViewsService } from '../alerts/alert-views.service.js';

type Log = { error(obj: object, msg: string): void };

/**
 * The alert as the alerts API shows it, built from what the runner already has plus the wearer
 * and group names of the summary snapshot in memory: no query between an SOS and its SSE frame.
 * Undefined when memory cannot answer exactly (no snapshot of that wearer, the alert's group is
 * not the wearer's current one, or a confirming user's name is needed).
 */
export function alertRowFromMemory(
  ctx: AppContext,
  log: Log,
  a: AlertRecord,
): AlertRow | undefined {
  // A device no wearer holds is named by its gateway, which memory does not hold: one query.
  if (a.confirmedBy !== null || a.wearerId === null) return undefined;
  const names = ctx.summaries.namesOf(a.wearerId, a.organizationId);
  if (!names || names.groupId !== a.groupId) return undefined;
  return {
    id: a.id,
    type: a.type,
    level: a.level,
    status: a.status,
    opened_at: a.openedAt,
    closed_at: a.closedAt,
    close_reason: a.closeReason,
    confirmed_at: a.confirmedAt,
    confirmed_by: null,
    confirmed_by_name: null,
    confirm_reason: null,
    confirm_note: null,
    procedure_steps: null,
    wearer_id: a.wearerId,
    wearer_name: names.name,
    group_id: a.groupId,
    group_name: names.groupName,
    organization_id: a.organizationId,
    time_zone: '',
    cause: a.cause,
    notify: a.notify,
    place: a.place,
    device_serial: null,
    gateway_id: null,
    gateway_name: null,
  };
}

/** From memory when it can; otherwise one query, ahead of queued ingestion on PGlite. */
export async function alertRowOf(
  ctx: AppContext,
  log: Log,
  a: AlertRecord,
): Promise<AlertRow | undefined> {
  return (
    alertRowFromMemory(ctx, log, a) ??
    (await withLaneHint({ urgent: true }, () => alertViewsService(ctx.db).row(a.id)))
  );
}
