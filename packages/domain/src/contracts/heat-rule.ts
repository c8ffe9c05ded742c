import { z } from 'zod';
import { ALERT_TYPES, CONFIRM_REASONS, NOTIFICATION_CHANNELS } from '../alerts.js';
import { HEAT_PROCEDURE_STEPS } from '../heat-rule.js';
import { yearMonth } from './common.js';
import { siteHeatChangeView } from './site-heat.js';
import { alertEndpoints } from './alerts.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { groupParams } from './notifications.js';

const idParam = z.string().min(1).max(64);

/**
 * Text a person writes: trimmed, not blank, at most `max` characters; no control characters but
 * line breaks and tabs, no lone surrogates (the database refuses both, which would be a 500).
 */
export const writtenText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    .refine((s) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s), {
      message: 'must not contain control characters',
    })
    .refine((s) => !/\p{Cs}/u.test(s), {
      message: 'must be well-formed text (no lone surrogates)',
    });

/** A hospital's phone as written locally (03-1234-5678) or E.164 (+81312345678). */
export const hospitalPhone = z
  .string()
  .trim()
  .regex(
    /^\+?[0-9][0-9\- ()]{1,18}[0-9]$/,
    'must be a phone number of digits, hyphens, spaces or brackets, e.g. 03-1234-5678',
  );

/** PUT /v2/group/{groupId}/heatProcedure: a site's written heat procedure and nearest hospital (all required). */
export const heatProcedureBody = z.strictObject({
  /** 1. Stop work: who decides and how the worker is taken out of the heat. */
  stopWork: writtenText(1000),
  /** 2. Cool the body: where and how (shade, water, ice). */
  coolBody: writtenText(1000),
  /** 3. Get medical care: when to see a doctor, when to call an ambulance (119). */
  medicalCare: writtenText(1000),
  /** 4. Emergency contacts: whom to tell, in order, besides the named contacts below. */
  emergencyContacts: writtenText(1000),
  hospital: z.strictObject({
    name: writtenText(200),
    address: writtenText(300),
    phone: hospitalPhone,
  }),
});
export type HeatProcedureBody = z.infer<typeof heatProcedureBody>;

/** A named contact of the site: a recipient of the group's alert notices for heat alerts. */
export const heatContact = z.object({
  name: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  channel: z.enum(NOTIFICATION_CHANNELS),
  order: z.number().int(),
});
export type HeatContact = z.infer<typeof heatContact>;

/** GET /v2/group/{groupId}/heatProcedure: the procedure (null until written) and the named contacts. */
export const heatProcedureResponse = z.object({
  groupId: z.string(),
  groupName: z.string(),
  clientId: z.string(),
  procedure: heatProcedureBody.nullable(),
  updatedAt: z.string().nullable(),
  updatedBy: z.object({ uid: z.string(), name: z.string() }).nullable(),
  contacts: z.array(heatContact),
});
export type HeatProcedureResponse = z.infer<typeof heatProcedureResponse>;

/** Steps a confirmation of a heat alert may record as taken. */
export const procedureStepsField = z
  .array(z.enum(HEAT_PROCEDURE_STEPS))
  .max(HEAT_PROCEDURE_STEPS.length);

const month = yearMonth;
const lng = z.enum(['ja', 'en']).default('ja');

/** GET /v2/group/{groupId}/heatRuleReport (and …Csv): one month of a site, in the organisation's time zone. */
export const heatRuleReportQuery = z.object({ month, lng: lng.optional() });
export type HeatRuleReportQuery = z.infer<typeof heatRuleReportQuery>;

export const heatRuleDayView = z.object({
  /** YYYY-MM-DD, local. */
  date: z.string(),
  /** Clock hours (0-23, local) of applicable work: any of the site's gateways marks them. */
  applicableHours: z.array(z.number().int()),
  /** The most hot minutes any one gateway saw that day. */
  hotMinutes: z.number().int(),
  longestStretchMinutes: z.number().int(),
  maxWbgt: z.number().nullable(),
  maxTemperature: z.number().nullable(),
  heatAlerts: z.number().int(),
});
export type HeatRuleDayView = z.infer<typeof heatRuleDayView>;

export const heatRuleAlertView = z.object({
  id: z.string(),
  type: z.enum(ALERT_TYPES),
  openedAt: z.string(),
  wearerName: z.string(),
  /** Seconds from raised to the first notice sent, to confirmation; null when none. */
  secondsToNotice: z.number().nullable(),
  secondsToConfirm: z.number().nullable(),
  confirmedAt: z.string().nullable(),
  confirmedBy: z.string().nullable(),
  confirmReason: z.enum(CONFIRM_REASONS).nullable(),
  procedureSteps: z.array(z.enum(HEAT_PROCEDURE_STEPS)),
});
export type HeatRuleAlertView = z.infer<typeof heatRuleAlertView>;

export const heatRuleReport = z.object({
  groupId: z.string(),
  groupName: z.string(),
  clientId: z.string(),
  timeZone: z.string(),
  month: z.string(),
  gatewayCount: z.number().int(),
  applicableHours: z.number().int(),
  applicableDays: z.number().int(),
  days: z.array(heatRuleDayView),
  alerts: z.array(heatRuleAlertView),
  /** The month's changes of the site heat level of the group's gateways, in time order. */
  siteHeatChanges: z.array(siteHeatChangeView),
  summary: z.object({
    heatAlerts: z.number().int(),
    confirmed: z.number().int(),
    medianSecondsToConfirm: z.number().nullable(),
    p90SecondsToConfirm: z.number().nullable(),
    /** Heat alerts whose confirmation recorded each step. */
    steps: z.record(z.enum(HEAT_PROCEDURE_STEPS), z.number().int()),
  }),
  procedure: heatProcedureBody.nullable(),
  contacts: z.array(heatContact),
});
export type HeatRuleReport = z.infer<typeof heatRuleReport>;

const heat = endpointsOf({ tags: ['Heat rule'], errors: BEARER_ERRORS });

export const getHeatProcedure = heat({
  method: 'GET',
  path: '/v2/group/{groupId}/heatProcedure',
  permission: 'group:read',
  summary:
    "The site's heat procedure and nearest hospital (null until written) and its named contacts",
  params: groupParams,
  responses: { 200: heatProcedureResponse },
});

export const putHeatProcedure = heat({
  method: 'PUT',
  path: '/v2/group/{groupId}/heatProcedure',
  permission: 'heatProcedure:update',
  summary: "Write the site's heat procedure and nearest hospital (audited)",
  params: groupParams,
  body: heatProcedureBody,
  responses: { 200: heatProcedureResponse },
});

export const getHeatRuleReport = heat({
  method: 'GET',
  path: '/v2/group/{groupId}/heatRuleReport',
  permission: 'group:read',
  summary:
    'One month of the site under the heat rule: applicable hours, heat alerts, time to respond, steps taken',
  params: groupParams,
  query: heatRuleReportQuery,
  responses: { 200: heatRuleReport },
});

export const getHeatRuleReportCsv = heat({
  method: 'GET',
  path: '/v2/group/{groupId}/heatRuleReportCsv',
  permission: 'group:read',
  summary: 'The monthly heat-rule report as CSV (UTF-8 with BOM)',
  params: groupParams,
  query: heatRuleReportQuery,
  responses: { 200: z.string() },
  raw: true,
  produces: ['text/csv'],
});

/**
 * GET /v2/alert/responseTimes (and …Csv): time from raised to the first notice sent, to its
 * delivery and to confirmation, per month (local) and alert type, over [from, to) (months, default
 * the last 12). clientId is the organisation; groupId narrows to one site.
 */
export const responseTimesQuery = z.object({
  clientId: idParam,
  groupId: idParam.optional(),
  /** One wearer's alerts (the monthly report of a wearer). */
  uid: idParam.optional(),
  from: month.optional(),
  to: month.optional(),
  lng: lng.optional(),
});
export type ResponseTimesQuery = z.infer<typeof responseTimesQuery>;

/** Median and 90th percentile of one measure, in seconds, over `count` alerts that have it. */
export const durationFigures = z.object({
  count: z.number().int(),
  medianSeconds: z.number().nullable(),
  p90Seconds: z.number().nullable(),
});
export type DurationFigures = z.infer<typeof durationFigures>;

export const responseTimesRow = z.object({
  /** YYYY-MM, or null for the whole period. */
  month: z.string().nullable(),
  /** An alert type, or null for all types. */
  type: z.enum(ALERT_TYPES).nullable(),
  alerts: z.number().int(),
  toNotice: durationFigures,
  toDelivery: durationFigures,
  toConfirm: durationFigures,
});
export type ResponseTimesRow = z.infer<typeof responseTimesRow>;

export const responseTimesResponse = z.object({
  clientId: z.string(),
  groupId: z.string().nullable(),
  uid: z.string().nullable(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  rows: z.array(responseTimesRow),
});
export type ResponseTimesResponse = z.infer<typeof responseTimesResponse>;

export const getResponseTimes = alertEndpoints({
  method: 'GET',
  path: '/v2/alert/responseTimes',
  permission: 'alertFigures:read',
  summary:
    'Time from raised to first notice, to delivery and to confirmation (median, p90) per month and alert type',
  query: responseTimesQuery,
  responses: { 200: responseTimesResponse },
});

export const getResponseTimesCsv = alertEndpoints({
  method: 'GET',
  path: '/v2/alert/responseTimesCsv',
  permission: 'alertFigures:read',
  summary: 'The response-time figures as CSV (UTF-8 with BOM)',
  query: responseTimesQuery,
  responses: { 200: z.string() },
  raw: true,
  produces: ['text/csv'],
});
