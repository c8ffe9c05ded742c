import {
  type Actor,
  type AlertCauseView,
  type AlertCsvQuery,
  type AlertListQuery,
  type AlertListResponse,
  type AlertPlace,
  alertPlace,
  type AlertView,
  type BatchConfirmResponse,
  type ConfirmOutcome,
  type ConfirmationInput,
  compactDate,
  HEAT_PROCEDURE_STEPS,
  isFlagSet,
  parseAlertTypes,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { accessService } from '../../access/access.service.js';
import { confirmAlerts as recordConfirmations } from '../../engine/confirmations.js';
import { ApiError } from '../../errors.js';
import { alertsCsv } from './alerts-csv.js';
import {
  type AlertFilter,
  type AlertRow,
  listAlerts,
  organizationTimeZone,
} from './alerts.repository.js';
import { FALLBACK_TIME_ZONE } from '../../engine/local-time.js';

/** A CSV export holds at most this many alerts (newest first); narrow the period for more. */
export const CSV_MAX_ROWS = 50_000;

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
    wearer: { uid: r.wearer_id, name: r.wearer_name },
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

function filterOf(q: Omit<AlertListQuery, 'page' | 'pageSize'>): AlertFilter {
  const parsed = parseAlertTypes(q.type);
  if ('invalid' in parsed) {
    throw new ApiError(
      400,
      'VALIDATION_FAILED',
      `querystring.type: unknown alert type "${parsed.invalid}"`,
      [{ path: 'querystring.type', message: `unknown alert type "${parsed.invalid}"` }],
    );
  }
  if (q.from && q.to && Date.parse(q.from) > Date.parse(q.to)) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'querystring.to: must not be before from', [
      { path: 'querystring.to', message: 'must not be before from' },
    ]);
  }
  return {
    notConfirmed: isFlagSet(q.notConfirmed),
    types: parsed.types,
    level: q.level,
    status: q.status,
    from: q.from,
    to: q.to,
    groupId: q.groupId,
    wearerId: q.uid,
    organizationId: q.clientId,
  };
}

export async function listAlertsFor(
  ctx: AppContext,
  actor: Actor,
  q: AlertListQuery,
): Promise<AlertListResponse> {
  const { rows, total } = await listAlerts(
    ctx.db,
    actor,
    filterOf(q),
    q.pageSize,
    (q.page - 1) * q.pageSize,
  );
  return { alerts: rows.map(toAlertView), total, page: q.page, pageSize: q.pageSize };
}

/**
 * The CSV and its file name, `alerts-YYYYMMDD.csv` dated today in the organisation's zone (the exported alerts'
 * organisation, else the reader's own; Tokyo for platform staff with an empty export).
 */
export async function alertsCsvFor(
  ctx: AppContext,
  actor: Actor,
  q: AlertCsvQuery,
): Promise<{ csv: string; fileName: string }> {
  const { rows } = await listAlerts(ctx.db, actor, filterOf(q), CSV_MAX_ROWS, 0);
  const timeZone =
    rows[0]?.time_zone ??
    (await organizationTimeZone(ctx.db, actor.organizationId)) ??
    FALLBACK_TIME_ZONE;
  return {
    csv: alertsCsv(
      rows.map((r) => ({ ...toAlertView(r), timeZone: r.time_zone })),
      q.lng,
    ),
    fileName: `alerts-${compactDate(ctx.now(), timeZone)}.csv`,
  };
}

/**
 * Confirms the alerts among `alertIds` the actor may confirm, open or already closed, with the
 * same reason and note: one outcome per id, in order (an id repeated is already_confirmed the
 * second time). Set-based: one read of where they are, then one transaction for all of them.
 */
export async function confirmAlerts(
  ctx: AppContext,
  actor: Actor,
  alertIds: string[],
  input: ConfirmationInput = {},
): Promise<BatchConfirmResponse> {
  const permitted = await accessService(ctx.db).permitted(
    actor,
    'alert:confirm',
    'alert',
    alertIds,
  );
  const targets = [...permitted].flatMap(([id, at]) =>
    at.wearerId ? [{ id, wearerId: at.wearerId }] : [],
  );
  const confirmed = await recordConfirmations(ctx, targets, {
    userId: actor.uid,
    reason: input.reason ?? null,
    note: input.note ? input.note : null,
    procedureSteps: input.procedureSteps
      ? HEAT_PROCEDURE_STEPS.filter((s) => input.procedureSteps!.includes(s))
      : null,
  });
  const now = new Set(confirmed.map((a) => a.id));
  const reported = new Set<string>();
  const results = alertIds.map((alertId): BatchConfirmResponse['results'][number] => {
    let result: ConfirmOutcome = 'not_found';
    if (permitted.has(alertId))
      result = now.has(alertId) && !reported.has(alertId) ? 'confirmed' : 'already_confirmed';
    reported.add(alertId);
    return { alertId, result };
  });
  return { results };
}
