import {
  ALERT_TYPES,
  type Actor,
  ECTEMP_START,
  ectempStep,
  HISTORY_MAX_DAYS,
  HISTORY_METRICS,
  type HistoryMetric,
  type HistoryPoint,
  type HistoryQuery,
  type HistoryResponse,
  type MonthlyReportResponse,
  type WearerSummary,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError, notFound } from '../../errors.js';
import {
  deviceDataRepository,
  type ReportDayRow,
  type SleepNightRow,
  type SummaryRow,
} from './device-data.repository.js';
import type { AnswerOptions, SnapshotAnswer } from './summary-snapshot.js';
import type { WearerScopeFilter } from '../../access/scope-sql.js';

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);
const round1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** Online while the last reading is younger than 3 duty cycles (at least 10 minutes, as DISCONNECTION). */
export function connectionOf(
  lastSeen: Date | string | null,
  dutyCycle: number | null,
  now: Date,
): 'online' | 'offline' {
  if (lastSeen === null) return 'offline';
  const windowMs = Math.max(3 * (dutyCycle ?? 1), 10) * 60_000;
  return now.getTime() - new Date(lastSeen).getTime() <= windowMs ? 'online' : 'offline';
}

export function toWearerSummary(r: SummaryRow, now: Date): WearerSummary {
  return {
    uid: r.uid,
    name: r.name,
    clientId: r.organization_id,
    groupId: r.group_id,
    groupName: r.group_name,
    serialNumber: r.serial_number,
    heartRate: r.heart_rate,
    skinTemperature: r.skin_temperature,
    worn: r.worn,
    battery: r.battery,
    connection: connectionOf(r.last_seen_at, r.duty_cycle, now),
    lastSeenAt: iso(r.last_seen_at),
    openAlerts: (r.open_alerts ?? []).map((a) => ({
      id: a.id,
      type: a.type as WearerSummary['openAlerts'][number]['type'],
      level: a.level as WearerSummary['openAlerts'][number]['level'],
      openedAt: a.openedAt,
    })),
  };
}

/** The summary as ready JSON text, straight from the database (the snapshot's reference). */
function summaryFromDatabase(
  ctx: AppContext,
  actor: Actor,
  filter: WearerScopeFilter,
): Promise<string> {
  return deviceDataRepository(ctx.db).summaryJson(actor, filter, ctx.now());
}

/** The summary as ready JSON text from the in-memory snapshot (see summary-snapshot.ts). */
function summaryFor(
  ctx: AppContext,
  actor: Actor,
  filter: WearerScopeFilter,
  options?: AnswerOptions,
): Promise<SnapshotAnswer> {
  return ctx.summaries.answer(actor, filter, options);
}

function parseMetrics(raw: string | undefined): HistoryMetric[] {
  if (raw === undefined || raw === '') return [...HISTORY_METRICS];
  const metrics: HistoryMetric[] = [];
  for (const m of raw.split(',')) {
    const known = HISTORY_METRICS.find((k) => k === m.trim());
    if (!known)
      throw invalid(
        'querystring.metrics',
        `unknown metric "${m}" (known: ${HISTORY_METRICS.join(', ')})`,
      );
    metrics.push(known);
  }
  return metrics;
}

/** One wearer's metrics over [from, to), in about `points` buckets of whole minutes. */
async function historyFor(
  ctx: AppContext,
  actor: Actor,
  q: HistoryQuery,
): Promise<HistoryResponse> {
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  if (to <= from) throw invalid('querystring.to', 'must be after from');
  if (to - from > HISTORY_MAX_DAYS * 86_400_000) {
    throw invalid('querystring.to', `the period may be at most ${HISTORY_MAX_DAYS} days`);
  }
  const metrics = parseMetrics(q.metrics);
  const wearer = await deviceDataRepository(ctx.db).findVisibleWearer(actor, q.uid);
  if (!wearer) throw notFound(`No wearer ${q.uid}`);
  const bucketMinutes = Math.max(1, Math.ceil((to - from) / 60_000 / q.points));
  const repo = deviceDataRepository(ctx.db);
  const [fromIso, toIso] = [new Date(from).toISOString(), new Date(to).toISOString()];
  const [rows, window] = await Promise.all([
    repo.historyRows(q.uid, fromIso, toIso, bucketMinutes),
    repo.windowSummary(
      q.uid,
      fromIso,
      toIso,
      bucketMinutes < 60 ? 'reading_minutes' : 'reading_hours',
    ),
  ]);
  // ECTemp runs one step a minute; over coarse buckets the estimate would be meaningless.
  let core = ECTEMP_START;
  let coreAt = from;
  const points = rows.map((r): HistoryPoint => {
    const at = new Date(r.at).getTime();
    const all: Required<Omit<HistoryPoint, 'at' | 'heartRateMin' | 'heartRateMax'>> = {
      heartRate: r.heart_rate === null ? null : Math.round(r.heart_rate * 10) / 10,
      skinTemperature:
        r.skin_temperature === null ? null : Math.round(r.skin_temperature * 100) / 100,
      coreTemperature: null,
      steps: r.steps,
      sleepStage: r.sleep_stage ?? dominantStage(r.sleep_minutes),
      stressLevel: (r.stress_level ?? null) as NonNullable<HistoryPoint['stressLevel']> | null,
      worn: r.worn,
      wbgt: r.wbgt,
    };
    if (bucketMinutes <= 10 && metrics.includes('coreTemperature')) {
      for (let m = coreAt; m < at; m += 60_000) core = ectempStep(core, null);
      core = ectempStep(core, r.worn === false ? null : r.heart_rate);
      coreAt = at + 60_000;
      all.coreTemperature = Math.round(core.ct * 100) / 100;
    }
    const point: HistoryPoint = { at: new Date(at).toISOString() };
    for (const m of metrics) Object.assign(point, { [m]: all[m] });
    if (metrics.includes('heartRate')) {
      point.heartRateMin = r.heart_rate_min;
      point.heartRateMax = r.heart_rate_max;
    }
    return point;
  });
  return {
    uid: q.uid,
    from: fromIso,
    to: toIso,
    metrics,
    points,
    timeZone: wearer.time_zone,
    summary: {
      heartRate:
        window.hr_min === null || window.hr_avg === null || window.hr_max === null
          ? null
          : { min: window.hr_min, avg: round1(window.hr_avg)!, max: window.hr_max },
      skinTemperature:
        window.temp_avg === null || window.temp_max === null
          ? null
          : {
              avg: Math.round(window.temp_avg * 100) / 100,
              max: Math.round(window.temp_max * 100) / 100,
            },
    },
  };
}

function dominantStage(minutes: Record<string, number>[] | null): number | null {
  if (!minutes) return null;
  const sum = new Map<number, number>();
  for (const m of minutes)
    for (const [k, v] of Object.entries(m ?? {})) sum.set(Number(k), (sum.get(Number(k)) ?? 0) + v);
  let best: number | null = null;
  for (const [k, v] of sum) if (v > 0 && (best === null || v > (sum.get(best) ?? 0))) best = k;
  return best;
}

type Figures = MonthlyReportResponse['totals'];

function figures(rows: ReportDayRow[], alerts: Record<string, number>): Figures {
  const sum = (f: (r: ReportDayRow) => number | null) => rows.reduce((s, r) => s + (f(r) ?? 0), 0);
  const vals = (f: (r: ReportDayRow) => number | null) =>
    rows.map(f).filter((v): v is number => v !== null);
  const hrCount = sum((r) => r.hr_count);
  const tempCount = sum((r) => r.temp_count);
  const hrMin = vals((r) => r.hr_min);
  const hrMax = vals((r) => r.hr_max);
  const tMax = vals((r) => r.temp_max);
  return {
    heartRate: {
      avg: hrCount ? round1(sum((r) => r.hr_sum) / hrCount) : null,
      min: hrMin.length ? Math.min(...hrMin) : null,
      max: hrMax.length ? Math.max(...hrMax) : null,
    },
    skinTemperature: {
      avg: tempCount ? Math.round((sum((r) => r.temp_sum) / tempCount) * 100) / 100 : null,
      max: tMax.length ? Math.max(...tMax) : null,
    },
    steps: sum((r) => r.steps),
    wornMinutes: sum((r) => r.worn_minutes),
    sleepMinutes: {
      DEEP_SLEEP: sum((r) => r.deep),
      LIGHT_SLEEP: sum((r) => r.light),
      RESTLESS_SLEEP: sum((r) => r.restless),
      AWAKE: sum((r) => r.awake),
    },
    stressHours: {
      NONE: sum((r) => r.stress_none),
      LOW: sum((r) => r.stress_low),
      MEDIUM: sum((r) => r.stress_medium),
      HIGH: sum((r) => r.stress_high),
      OVERLOAD: sum((r) => r.stress_overload),
    },
    alerts,
  };
}

const zeroAlerts = () =>
  Object.fromEntries(ALERT_TYPES.map((t) => [t, 0])) as Record<string, number>;

/** YYYY-MM of a moment in a time zone. */
export function monthIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' })
    .format(at)
    .slice(0, 7);
}

/** YYYY-MM-DD of a moment in a time zone. */
const localDateIn = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);

/**
 * The day rows with their sleep replaced by the nights dated on that day (sleepNightOf): a night from 23:00 on
 * the 1st to 06:00 on the 2nd counts whole on the 1st. A night whose date has no other figures gets a row.
 */
function withNights(days: ReportDayRow[], nights: SleepNightRow[]): ReportDayRow[] {
  const byNight = new Map(nights.map((n) => [n.night, n]));
  const out = days.map((d) => {
    const n = byNight.get(d.day);
    return {
      ...d,
      deep: n?.deep ?? 0,
      light: n?.light ?? 0,
      restless: n?.restless ?? 0,
      awake: n?.awake ?? 0,
    };
  });
  const known = new Set(days.map((d) => d.day));
  for (const n of nights)
    if (!known.has(n.night))
      out.push({
        day: n.night,
        hr_sum: null,
        hr_count: null,
        hr_min: null,
        hr_max: null,
        temp_sum: null,
        temp_count: null,
        temp_max: null,
        steps: null,
        worn_minutes: null,
        deep: n.deep,
        light: n.light,
        restless: n.restless,
        awake: n.awake,
        stress_none: null,
        stress_low: null,
        stress_medium: null,
        stress_high: null,
        stress_overload: null,
      });
  return out;
}

/** Every day of the month in the organisation's zone up to today, with zeros where nothing was measured. */
async function monthlyReportFor(
  ctx: AppContext,
  actor: Actor,
  uid: string,
  month: string,
): Promise<MonthlyReportResponse> {
  const wearer = await deviceDataRepository(ctx.db).findVisibleWearer(actor, uid);
  if (!wearer) throw notFound(`No wearer ${uid}`);
  const tz = wearer.time_zone;
  // A month that has not begun where the organisation is has nothing to report (and would read as empty).
  const thisMonth = monthIn(ctx.now(), tz);
  if (month > thisMonth)
    throw invalid('querystring.month', `must not be after the current month ${thisMonth} (${tz})`);
  const [dayRows, sleepRows, counts] = await Promise.all([
    deviceDataRepository(ctx.db).monthlyRows(uid, month, tz),
    deviceDataRepository(ctx.db).monthlySleepRows(uid, month, tz),
    deviceDataRepository(ctx.db).monthlyAlertCounts(uid, month, tz),
  ]);
  const rows = withNights(dayRows, sleepRows);
  const [y, m] = month.split('-').map(Number) as [number, number];
  // The current month stops at today where the organisation is: a day still to come has no row.
  const shownDays =
    month === thisMonth
      ? Number(localDateIn(ctx.now(), tz).slice(8, 10))
      : new Date(Date.UTC(y, m, 0)).getUTCDate();
  const totalAlerts = zeroAlerts();
  const days = Array.from({ length: shownDays }, (_, i) => {
    const date = `${month}-${String(i + 1).padStart(2, '0')}`;
    const alerts = zeroAlerts();
    for (const c of counts.filter((c) => c.day === date)) {
      alerts[c.type] = c.n;
      totalAlerts[c.type] = (totalAlerts[c.type] ?? 0) + c.n;
    }
    return {
      date,
      ...figures(
        rows.filter((r) => r.day === date),
        alerts,
      ),
    };
  });
  return { uid, name: wearer.name, month, timeZone: tz, days, totals: figures(rows, totalAlerts) };
}

/** The wearers' device data: the summary, one wearer's history and their monthly report. */
export function deviceDataService(ctx: AppContext) {
  return {
    summary: (
      actor: Actor,
      filter: WearerScopeFilter,
      options?: AnswerOptions,
    ): Promise<SnapshotAnswer> => summaryFor(ctx, actor, filter, options),
    summaryFromDatabase: (actor: Actor, filter: WearerScopeFilter): Promise<string> =>
      summaryFromDatabase(ctx, actor, filter),
    /** Summary rows of a few wearers (the live stream's changed ones), scoped by the actor given. */
    summaryRows: (actor: Actor, filter: WearerScopeFilter): Promise<SummaryRow[]> =>
      deviceDataRepository(ctx.db).summaryRows(actor, filter),
    history: (actor: Actor, q: HistoryQuery): Promise<HistoryResponse> => historyFor(ctx, actor, q),
    monthlyReport: (actor: Actor, uid: string, month: string): Promise<MonthlyReportResponse> =>
      monthlyReportFor(ctx, actor, uid, month),
  };
}
