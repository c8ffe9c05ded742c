import { z } from 'zod';
import { ALERT_LEVELS, ALERT_TYPES, SNOOZE_MAX_MINUTES, SNOOZE_REASON_MAX } from '../alerts.js';
import { alertView } from './alerts.js';
import { queryFlag } from './common.js';
import { alertEndpoints } from './alerts.js';

const id = z.string().min(1).max(64);

/**
 * POST /v2/alert/snooze: silence one alert type of one wearer for at most 12 hours, with a reason.
 * Only CAUTION and DEVICE_STATUS types (isSnoozable); an EMERGENCY or CRITICAL type is refused with 400.
 */
export const snoozeBody = z.object({
  /** The wearer. */
  uid: id,
  alertType: z.enum(ALERT_TYPES),
  minutes: z.number().int().min(1).max(SNOOZE_MAX_MINUTES),
  reason: z.string().trim().min(1).max(SNOOZE_REASON_MAX),
});
export type SnoozeBody = z.infer<typeof snoozeBody>;

const person = z.object({ uid: z.string(), name: z.string() });
export const snoozeView = z.object({
  id: z.string(),
  wearer: person,
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  clientId: z.string(),
  alertType: z.enum(ALERT_TYPES),
  level: z.enum(ALERT_LEVELS),
  reason: z.string(),
  createdBy: person.nullable(),
  createdAt: z.string(),
  /** It expires by itself then. */
  until: z.string(),
  /** Ended early by staff. */
  endedAt: z.string().nullable(),
  endedBy: person.nullable(),
  /** Neither expired nor ended, now. */
  active: z.boolean(),
});
export type SnoozeView = z.infer<typeof snoozeView>;

/** GET /v2/alert/snoozes: the active snoozes the caller may see (with includeEnded, the last 7 days' too). */
export const snoozeListQuery = z.object({
  clientId: id.optional(),
  groupId: id.optional(),
  uid: id.optional(),
  includeEnded: queryFlag.optional(),
});
export type SnoozeListQuery = z.infer<typeof snoozeListQuery>;
export const snoozeListResponse = z.object({ snoozes: z.array(snoozeView) });
export type SnoozeListResponse = z.infer<typeof snoozeListResponse>;
export const snoozeParams = z.object({ snoozeId: id });

/** Longest shift the handover looks back over (hours). */
export const HANDOVER_MAX_HOURS = 24;
/** GET /v2/alert/handover: what the next shift must know; `hours` back from now (default 8). */
export const handoverQuery = z.object({
  hours: z.coerce.number().int().min(1).max(HANDOVER_MAX_HOURS).default(8),
  clientId: id.optional(),
  groupId: id.optional(),
});
export type HandoverQuery = z.infer<typeof handoverQuery>;
const alertPage = z.object({ alerts: z.array(alertView), total: z.number().int() });
export const handoverResponse = z.object({
  from: z.string(),
  to: z.string(),
  /** Open now, newest first (at most 200). */
  open: alertPage,
  /** Confirmed between from and to, newest first (at most 200). */
  confirmed: alertPage,
  /** Active now, or set or ended between from and to. */
  snoozes: z.array(snoozeView),
});
export type HandoverResponse = z.infer<typeof handoverResponse>;

export const snoozeAlertType = alertEndpoints({
  method: 'POST',
  path: '/v2/alert/snooze',
  permission: 'alert:snooze',
  summary:
    'Snooze one CAUTION or DEVICE_STATUS alert type of one wearer (at most 12 hours, with a reason): recorded, not notified',
  body: snoozeBody,
  errors: [400, 401, 403, 404, 409],
  responses: { 201: snoozeView },
});

export const listSnoozes = alertEndpoints({
  method: 'GET',
  path: '/v2/alert/snoozes',
  permission: 'alert:read',
  summary: 'Active snoozes (includeEnded: also those of the last 7 days)',
  query: snoozeListQuery,
  responses: { 200: snoozeListResponse },
});

export const endSnooze = alertEndpoints({
  method: 'DELETE',
  path: '/v2/alert/snooze/{snoozeId}',
  permission: 'alert:snooze',
  summary: 'End a snooze early',
  params: snoozeParams,
  responses: { 200: snoozeView },
});

export const getHandover = alertEndpoints({
  method: 'GET',
  path: '/v2/alert/handover',
  permission: 'alert:handover',
  summary:
    'Shift handover: open alerts, snoozes (who, why, until) and confirmations of the last `hours` (default 8)',
  query: handoverQuery,
  responses: { 200: handoverResponse },
});
