import {
  type Actor,
  type AlertCsvQuery,
  type AlertListQuery,
  type AlertListResponse,
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
import { confirmAlerts as recordConfirmations } from './confirmations.js';
import { ApiError } from '../../errors.js';
import { alertsCsv } from './alerts-csv.js';
import { toAlertView } from './alert-view.js';
import { type AlertFilter, alertsRepository } from './alerts.repository.js';
import { FALLBACK_TIME_ZONE } from '../../engine/local-time.js';
export {
  ALERT_LEVEL_LABELS,
  ALERT_TYPE_LABELS,
  CONFIRM_REASON_LABELS,
  type Lang,
  SITE_HEAT_LEVEL_LABELS,
  UNASSIGNED_DEVICE_LABELS,
} from './alert-labels.js';
export { csvCell } from './alerts-csv.js';
export type { AlertRow } from './alerts.repository.js';

/** A CSV export holds at most this many alerts (newest first); narrow the period for more. */
export const CSV_MAX_ROWS = 50_000;

/** The alert as the API shows it (kept in alert-view.ts, which the webhook outbox also reads). */
export { toAlertView };

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

async function listAlerts(
  ctx: AppContext,
  actor: Actor,
  q: AlertListQuery,
): Promise<AlertListResponse> {
  const { rows, total } = await alertsRepository(ctx.db).listAlerts(
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
async function alertsCsvOf(
  ctx: AppContext,
  actor: Actor,
  q: AlertCsvQuery,
): Promise<{ csv: string; fileName: string; wearerIds: string[] }> {
  const { rows } = await alertsRepository(ctx.db).listAlerts(actor, filterOf(q), CSV_MAX_ROWS, 0);
  const timeZone =
    rows[0]?.time_zone ??
    (await alertsRepository(ctx.db).organizationTimeZone(actor.organizationId)) ??
    FALLBACK_TIME_ZONE;
  const views = rows.map((r) => ({ ...toAlertView(r), timeZone: r.time_zone }));
  return {
    csv: alertsCsv(views, q.lng),
    // The people the file names, for the access log.
    wearerIds: views.flatMap((v) => (v.wearer ? [v.wearer.uid] : [])),
    fileName: `alerts-${compactDate(ctx.now(), timeZone)}.csv`,
  };
}

/**
 * Confirms the alerts among `alertIds` the actor may confirm, open or already closed, with the
 * same reason and note: one outcome per id, in order (an id repeated is already_confirmed the
 * second time). Set-based: one read of where they are, then one transaction for all of them.
 */
async function confirmAlerts(
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
  // An alert of a device no wearer holds has no wearer to tell the engine (issue 34).
  const targets = [...permitted].map(([id, at]) => ({ id, wearerId: at.wearerId ?? null }));
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

/** The alerts' routes: list, CSV export and confirmation, each checked against the actor's scope. */
export function alertsService(ctx: AppContext) {
  return {
    list: (actor: Actor, q: AlertListQuery) => listAlerts(ctx, actor, q),
    csv: (actor: Actor, q: AlertCsvQuery) => alertsCsvOf(ctx, actor, q),
    confirm: (actor: Actor, alertIds: string[], input?: ConfirmationInput) =>
      confirmAlerts(ctx, actor, alertIds, input),
  };
}
