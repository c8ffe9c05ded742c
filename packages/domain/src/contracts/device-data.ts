import { z } from 'zod';
import { isoInstant, queryFlag, yearMonth } from './common.js';
import { ALERT_LEVELS, ALERT_TYPES } from '../alerts.js';
import { STRESS_LEVELS } from '../telemetry.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { DEVICE_SUMMARY_PATH } from './device-summary-path.js';

const idParam = z.string().min(1).max(64);
// Within what the database can store (a year-0000 or +23:59 filter was a 500).
const instant = isoInstant;

export const HISTORY_METRICS = [
  'heartRate',
  'skinTemperature',
  'coreTemperature',
  'steps',
  'sleepStage',
  'stressLevel',
  'worn',
  'wbgt',
] as const;
export type HistoryMetric = (typeof HISTORY_METRICS)[number];
export const HISTORY_MAX_DAYS = 400;
export const HISTORY_MAX_POINTS = 5000;

/** GET /v3/device/history: one wearer's metrics, downsampled to about `points`. */
export const historyQuery = z.object({
  uid: idParam,
  from: instant,
  to: instant,
  points: z.coerce.number().int().min(1).max(HISTORY_MAX_POINTS).default(500),
  /** Comma-separated subset of HISTORY_METRICS; all when absent. */
  metrics: z.string().max(200).optional(),
});
export type HistoryQuery = z.infer<typeof historyQuery>;

export const historyPoint = z.object({
  /** Start of the bucket. */
  at: z.string(),
  heartRate: z.number().nullable().optional(),
  /** With heartRate: the bucket's lowest and highest reading (the rollups' own min and max), for the chart's band. */
  heartRateMin: z.number().nullable().optional(),
  heartRateMax: z.number().nullable().optional(),
  skinTemperature: z.number().nullable().optional(),
  coreTemperature: z.number().nullable().optional(),
  steps: z.number().nullable().optional(),
  sleepStage: z.number().int().nullable().optional(),
  stressLevel: z.enum(STRESS_LEVELS).nullable().optional(),
  worn: z.boolean().nullable().optional(),
  wbgt: z.number().nullable().optional(),
});
export type HistoryPoint = z.infer<typeof historyPoint>;
export const historyResponse = z.object({
  uid: z.string(),
  from: z.string(),
  to: z.string(),
  metrics: z.array(z.enum(HISTORY_METRICS)),
  points: z.array(historyPoint),
  /** The organisation's time zone: sleep nights are dated in it (docs/sleep-nights.md). */
  timeZone: z.string(),
  /**
   * Over the whole window, from the minute rollups (true extremes, weighted mean) - not from the buckets'
   * averages. Null where nothing was measured. Skin temperature has no minimum: the rollups keep only its maximum.
   */
  summary: z.object({
    heartRate: z.object({ min: z.number(), avg: z.number(), max: z.number() }).nullable(),
    skinTemperature: z.object({ avg: z.number(), max: z.number() }).nullable(),
  }),
});
export type HistoryResponse = z.infer<typeof historyResponse>;

/**
 * GET /v3/device/summary answers in one of two forms: `rows` (the default, the specification's
 * shape: one object per wearer) or `columns` (the column names once, then one array per wearer:
 * no key repeated 10,000 times; the console reads this one).
 */
export const SUMMARY_FORMATS = ['rows', 'columns'] as const;
export type SummaryFormat = (typeof SUMMARY_FORMATS)[number];
/** GET /v3/device/summary: the latest state of every wearer the caller may see. */
export const summaryQuery = z.object({
  clientId: idParam.optional(),
  groupId: idParam.optional(),
  format: z.enum(SUMMARY_FORMATS).default('rows'),
  /**
   * Every change announced before the request is in the answer. Without it the answer may be up to
   * `SUMMARY_SNAPSHOT_MS` behind (changes are read again at most that often); the console asks for
   * it, since a change it missed would otherwise wait for its next poll.
   */
  settled: queryFlag.optional(),
});
export const CONNECTION_STATES = ['online', 'offline'] as const;
export const openAlertBrief = z.object({
  id: z.string(),
  type: z.enum(ALERT_TYPES),
  level: z.enum(ALERT_LEVELS),
  openedAt: z.string(),
});
export const wearerSummary = z.object({
  uid: z.string(),
  name: z.string(),
  clientId: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  serialNumber: z.string().nullable(),
  heartRate: z.number().nullable(),
  skinTemperature: z.number().nullable(),
  worn: z.boolean().nullable(),
  battery: z.number().nullable(),
  /** online while the last reading is younger than 3 duty cycles. */
  connection: z.enum(CONNECTION_STATES),
  lastSeenAt: z.string().nullable(),
  openAlerts: z.array(openAlertBrief),
});
export type WearerSummary = z.infer<typeof wearerSummary>;
export const summaryResponse = z.object({
  generatedAt: z.string(),
  wearers: z.array(wearerSummary),
});
export type SummaryResponse = z.infer<typeof summaryResponse>;

/** The columns of `format=columns`, in order: the summary's fields and the bracelet's name. */
export const SUMMARY_COLUMNS = [
  'uid',
  'name',
  'clientId',
  'groupId',
  'groupName',
  'serialNumber',
  'deviceName',
  'heartRate',
  'skinTemperature',
  'worn',
  'battery',
  'connection',
  'lastSeenAt',
  'openAlerts',
] as const;
const s = wearerSummary.shape;
export const summaryColumnsRow = z.tuple([
  s.uid,
  s.name,
  s.clientId,
  s.groupId,
  s.groupName,
  s.serialNumber,
  z.string().nullable(),
  s.heartRate,
  s.skinTemperature,
  s.worn,
  s.battery,
  s.connection,
  s.lastSeenAt,
  s.openAlerts,
]);
export const summaryColumnsResponse = z.object({
  generatedAt: z.string(),
  columns: z.array(z.enum(SUMMARY_COLUMNS)),
  rows: z.array(summaryColumnsRow),
});
export type SummaryColumnsResponse = z.infer<typeof summaryColumnsResponse>;
/** A wearer of the columns form: the summary and the bracelet's name (the console's list). */
export type DeviceSummary = WearerSummary & { deviceName: string | null };

/** The columns form read back into one object per wearer (by the names it carries, not by position). */
export function decodeSummaryColumns(answer: SummaryColumnsResponse): DeviceSummary[] {
  const at = new Map<string, number>(answer.columns.map((c, i) => [c, i]));
  const idx = SUMMARY_COLUMNS.map((c) => {
    const i = at.get(c);
    if (i === undefined) throw new Error(`summary columns: "${c}" is missing`);
    return i;
  });
  return answer.rows.map((row) => {
    const wearer: Record<string, unknown> = {};
    for (let k = 0; k < SUMMARY_COLUMNS.length; k++) wearer[SUMMARY_COLUMNS[k]!] = row[idx[k]!];
    return wearer as DeviceSummary;
  });
}

const deviceData = endpointsOf({ tags: ['Device data'], errors: BEARER_ERRORS });

export const getDeviceSummary = deviceData({
  method: 'GET',
  path: DEVICE_SUMMARY_PATH,
  permission: 'wearer:read',
  summary:
    "Every visible wearer's latest state and open alerts, from a snapshot kept serialised (ETag; format=columns for the compact form)",
  query: summaryQuery,
  responses: { 200: z.union([summaryResponse, summaryColumnsResponse]) },
});

/** GET /v2/device/monthlyReport?uid=&month=YYYY-MM (days in the organisation's time zone). */
export const monthlyReportQuery = z.object({
  uid: idParam,
  month: yearMonth,
});
const sleepMinutes = z.object({
  DEEP_SLEEP: z.number(),
  LIGHT_SLEEP: z.number(),
  RESTLESS_SLEEP: z.number(),
  AWAKE: z.number(),
});
const dayFigures = z.object({
  heartRate: z.object({
    avg: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
  }),
  skinTemperature: z.object({ avg: z.number().nullable(), max: z.number().nullable() }),
  steps: z.number(),
  wornMinutes: z.number(),
  sleepMinutes,
  /** Hours whose last stress reading was at each level (from the hourly rollup). */
  stressHours: z.object({
    NONE: z.number(),
    LOW: z.number(),
    MEDIUM: z.number(),
    HIGH: z.number(),
    OVERLOAD: z.number(),
  }),
  alerts: z.record(z.string(), z.number()),
});
export const monthlyReportDay = dayFigures.extend({ date: z.string() });
export const monthlyReportResponse = z.object({
  uid: z.string(),
  /** The wearer's name (the printed report's heading). */
  name: z.string(),
  month: z.string(),
  timeZone: z.string(),
  days: z.array(monthlyReportDay),
  totals: dayFigures,
});
export type MonthlyReportResponse = z.infer<typeof monthlyReportResponse>;
export type MonthlyReportDay = z.infer<typeof monthlyReportDay>;
/** GET /v2/device/monthlyReportCsv?uid=&month=&lng=: the same report as CSV (UTF-8 with BOM, CRLF) for Excel. */
export const monthlyReportCsvQuery = monthlyReportQuery.extend({
  lng: z.enum(['ja', 'en']).default('ja'),
});

export const getDeviceHistory = deviceData({
  method: 'GET',
  path: '/v3/device/history',
  permission: 'wearer:read',
  summary: "One wearer's metrics over a period, downsampled to about `points` buckets",
  query: historyQuery,
  responses: { 200: historyResponse },
});

export const getMonthlyReport = deviceData({
  method: 'GET',
  path: '/v2/device/monthlyReport',
  permission: 'wearer:read',
  summary: "A wearer's month day by day, with totals (days in the organisation's zone)",
  query: monthlyReportQuery,
  responses: { 200: monthlyReportResponse },
});

export const getMonthlyReportCsv = deviceData({
  method: 'GET',
  path: '/v2/device/monthlyReportCsv',
  permission: 'wearer:read',
  summary:
    "A wearer's monthly report as CSV for Excel (UTF-8 with BOM, CRLF; days in the organisation's zone)",
  query: monthlyReportCsvQuery,
  responses: { 200: z.string() },
  raw: true,
  produces: ['text/csv'],
});

/** Payload of the live stream's `summary` event: one wearer's latest state changed. */
export const liveSummaryEvent = wearerSummary;
