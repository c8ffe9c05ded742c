import { z } from 'zod';
import { isoInstant, queryFlag } from './common.js';
import { ALERT_LEVELS, ALERT_TYPES, CONFIRM_NOTE_MAX, CONFIRM_REASONS } from '../alerts.js';
import { HEAT_PROCEDURE_STEPS, type HeatProcedureStep } from '../heat-rule.js';
import { alertPlace } from '../place/alert-place.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

export const ALERT_STATUSES = ['OPEN', 'CLOSED'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

const idParam = z.string().min(1).max(64);
// Within what the database can store (a year-0000 or +23:59 filter was a 500).
const instant = isoInstant;

/** Filters shared by GET /v2/alert/list and GET /v2/alert/listCsv. */
export const alertFilters = z.object({
  /** Only alerts nobody has confirmed yet. */
  notConfirmed: queryFlag.optional(),
  /** One type, several (`type=A&type=B`) or a comma-separated list. */
  type: z.union([z.string().max(400), z.array(z.string().max(64)).max(20)]).optional(),
  level: z.enum(ALERT_LEVELS).optional(),
  status: z.enum(ALERT_STATUSES).optional(),
  from: instant.optional(),
  to: instant.optional(),
  groupId: idParam.optional(),
  /** The wearer. */
  uid: idParam.optional(),
  /** The organisation (platform roles; others are limited to their own anyway). */
  clientId: idParam.optional(),
});
export const alertListQuery = alertFilters.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AlertListQuery = z.infer<typeof alertListQuery>;
export const alertCsvQuery = alertFilters.extend({ lng: z.enum(['ja', 'en']).default('ja') });
export type AlertCsvQuery = z.infer<typeof alertCsvQuery>;

/** Parses the `type` filter into known alert types; returns the bad value if any. */
export function parseAlertTypes(
  raw: string | string[] | undefined,
): { types: (typeof ALERT_TYPES)[number][] } | { invalid: string } {
  if (raw === undefined) return { types: [] };
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).filter(Boolean);
  const types: (typeof ALERT_TYPES)[number][] = [];
  for (const v of values) {
    const t = ALERT_TYPES.find((k) => k === v);
    if (!t) return { invalid: v };
    types.push(t);
  }
  return { types };
}

export const alertCause = z.object({
  rule: z.string(),
  values: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])),
  windowStart: z.string().nullable(),
  windowEnd: z.string().nullable(),
});
export type AlertCauseView = z.infer<typeof alertCause>;

export const alertView = z.object({
  id: z.string(),
  type: z.enum(ALERT_TYPES),
  level: z.enum(ALERT_LEVELS),
  status: z.enum(ALERT_STATUSES),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  closeReason: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  confirmedBy: z.object({ uid: z.string(), name: z.string() }).nullable(),
  confirmReason: z.enum(CONFIRM_REASONS).nullable(),
  confirmNote: z.string().nullable(),
  /** Heat alerts: the site's procedure steps the confirming staff member said were taken. */
  procedureSteps: z.array(z.enum(HEAT_PROCEDURE_STEPS)),
  /** Null on an SOS or fall from a device no wearer holds (issue 34): `device` names it. */
  wearer: z.object({ uid: z.string(), name: z.string() }).nullable(),
  /**
   * An SOS or fall from a device no wearer holds (a serial the organisation does not know, or a
   * bracelet with no wearer): its serial and the gateway that heard it. Null on every other alert.
   */
  device: z
    .object({
      serial: z.string(),
      gatewayId: z.string().nullable(),
      gatewayName: z.string().nullable(),
    })
    .nullable(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  clientId: z.string(),
  cause: alertCause.nullable(),
  /** False when the alert fell outside the wearer's schedule: recorded, not notified. */
  notified: z.boolean(),
  /**
   * Where the wearer was when the alert opened (EMERGENCY and CRITICAL alerts; null on others and on
   * alerts from before issue 17). `{ kind: 'unknown' }` when nothing placed the wearer.
   */
  place: alertPlace.nullable(),
});
export type AlertView = z.infer<typeof alertView>;

export const alertListResponse = z.object({
  alerts: z.array(alertView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AlertListResponse = z.infer<typeof alertListResponse>;

/** What a confirmation says besides who and when: an optional reason and note. */
const confirmationFields = {
  reason: z.enum(CONFIRM_REASONS).optional(),
  /** Free text; blank counts as none. */
  note: z.string().trim().max(CONFIRM_NOTE_MAX).optional(),
  /** Heat alerts only (Japan's 2025 heat rule): the site's procedure steps taken; ignored on other types. */
  procedureSteps: z.array(z.enum(HEAT_PROCEDURE_STEPS)).max(HEAT_PROCEDURE_STEPS.length).optional(),
};
export type ConfirmationInput = {
  reason?: (typeof CONFIRM_REASONS)[number];
  note?: string;
  procedureSteps?: HeatProcedureStep[];
};

/** POST /v2/alert/confirm: any alert the caller may see, open or already closed. */
export const confirmAlertBody = z.object({ alertId: idParam, ...confirmationFields });
/** confirmed now; already_confirmed: someone had; not_found: no such alert for this caller. */
export const CONFIRM_OUTCOMES = ['confirmed', 'already_confirmed', 'not_found'] as const;
export type ConfirmOutcome = (typeof CONFIRM_OUTCOMES)[number];
export const confirmAlertResponse = z.object({
  alertId: z.string(),
  result: z.enum(CONFIRM_OUTCOMES),
});

/** Most ids one batch confirm takes. */
export const BATCH_CONFIRM_MAX = 1000;
/** POST /v2/alert/batchConfirm: one outcome per id; an id the caller may not see is not_found. */
export const batchConfirmBody = z.object({
  alertIds: z.array(idParam).min(1).max(BATCH_CONFIRM_MAX),
  ...confirmationFields,
});
export const batchConfirmResponse = z.object({ results: z.array(confirmAlertResponse) });
export type BatchConfirmResponse = z.infer<typeof batchConfirmResponse>;

/** Payload of the live stream's `alert` event. */
export const liveAlertEvent = z.object({
  action: z.enum(['opened', 'closed', 'confirmed']),
  alert: alertView,
});
export type LiveAlertEvent = z.infer<typeof liveAlertEvent>;

/** The alert history, its CSV and confirmation (/v2/alert/*). */
export const alertEndpoints = endpointsOf({ tags: ['Alerts'], errors: BEARER_ERRORS });

export const listAlerts = alertEndpoints({
  method: 'GET',
  path: '/v2/alert/list',
  permission: 'alert:read',
  summary: 'Alerts the caller may see, newest first, a page at a time',
  query: alertListQuery,
  responses: { 200: alertListResponse },
});

export const listAlertsCsv = alertEndpoints({
  method: 'GET',
  path: '/v2/alert/listCsv',
  permission: 'alert:read',
  summary: 'The filtered alerts as CSV (UTF-8 with BOM)',
  query: alertCsvQuery,
  responses: { 200: z.string() },
  raw: true,
  produces: ['text/csv'],
});

export const confirmAlert = alertEndpoints({
  method: 'POST',
  path: '/v2/alert/confirm',
  permission: 'alert:confirm',
  summary: 'Confirm one alert (closing it if open), with an optional reason and note',
  body: confirmAlertBody,
  responses: { 200: confirmAlertResponse },
});

export const batchConfirmAlerts = alertEndpoints({
  method: 'POST',
  path: '/v2/alert/batchConfirm',
  permission: 'alert:confirm',
  summary: 'Confirm several alerts with one reason and note: one outcome per id',
  body: batchConfirmBody,
  responses: { 200: batchConfirmResponse },
});
