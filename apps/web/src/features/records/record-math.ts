import {
  type HistoryPoint,
  sleepNightOf,
  SLEEP_STAGES,
  type SleepStage,
  STRESS_LEVELS,
  type StressLevel,
} from '@wearable/domain';

export const SLEEP_STAGE_ORDER: readonly SleepStage[] = [
  'DEEP_SLEEP',
  'LIGHT_SLEEP',
  'RESTLESS_SLEEP',
  'AWAKE',
];
const STAGE_BY_CODE = new Map<number, SleepStage>(
  Object.entries(SLEEP_STAGES).map(([stage, code]) => [code, stage as SleepStage]),
);

export type StageMinutes = Record<SleepStage, number>;
export interface SleepNight {
  /** The evening's date (YYYY-MM-DD, local): a night from 22:00 on the 3rd to 06:00 on the 4th is the 3rd's. */
  night: string;
  minutes: StageMinutes;
  /** Minutes asleep (every stage but AWAKE). */
  asleep: number;
}

const zeroStages = (): StageMinutes => ({
  DEEP_SLEEP: 0,
  LIGHT_SLEEP: 0,
  RESTLESS_SLEEP: 0,
  AWAKE: 0,
});
/**
 * Minutes per sleep stage, grouped by night. Each point stands for one bucket of
 * `bucketMinutes` (its dominant stage); a point belongs to the night dated by the day it started in
 * `timeZone` (the organisation's, from the history answer; local noon turns the day: sleepNightOf,
 * docs/sleep-nights.md), so sleep across midnight stays one night. Unknown codes are skipped.
 */
export function sleepNights(
  points: readonly HistoryPoint[],
  bucketMinutes: number,
  timeZone?: string,
): SleepNight[] {
  const nights = new Map<string, StageMinutes>();
  for (const point of points) {
    const stage = point.sleepStage == null ? undefined : STAGE_BY_CODE.get(point.sleepStage);
    if (stage === undefined) continue;
    const night = sleepNightOf(point.at, timeZone);
    const minutes = nights.get(night) ?? zeroStages();
    minutes[stage] += bucketMinutes;
    nights.set(night, minutes);
  }
  return [...nights.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([night, minutes]) => ({
      night,
      minutes,
      asleep: minutes.DEEP_SLEEP + minutes.LIGHT_SLEEP + minutes.RESTLESS_SLEEP,
    }));
}

/** One stretch of a night at one stage: [from, to) in ms since the epoch. */
export interface SleepSpan {
  stage: SleepStage;
  from: number;
  to: number;
}
export interface NightHypnogram {
  /** The evening's date, as in sleepNights. */
  night: string;
  /** The first stage's start and the last one's end (ms). */
  start: number;
  end: number;
  /** In time order; neighbouring buckets of one stage joined; a gap without data is no span. */
  spans: SleepSpan[];
}

/**
 * The night's stages over time (a hypnogram), nights newest first, dated by the same rule as sleepNights. Each
 * point stands for [at, at + bucketMinutes); two spans of one stage that touch are one.
 */
export function hypnograms(
  points: readonly HistoryPoint[],
  bucketMinutes: number,
  timeZone?: string,
): NightHypnogram[] {
  const bucketMs = bucketMinutes * 60_000;
  const nights = new Map<string, SleepSpan[]>();
  const staged = points
    .map((p) => ({
      at: Date.parse(p.at),
      iso: p.at,
      stage: p.sleepStage == null ? undefined : STAGE_BY_CODE.get(p.sleepStage),
    }))
    .filter((p): p is { at: number; iso: string; stage: SleepStage } => p.stage !== undefined)
    .sort((a, b) => a.at - b.at);
  for (const p of staged) {
    const night = sleepNightOf(p.iso, timeZone);
    const spans = nights.get(night) ?? [];
    const last = spans.at(-1);
    if (last && last.stage === p.stage && last.to >= p.at)
      last.to = Math.max(last.to, p.at + bucketMs);
    else spans.push({ stage: p.stage, from: p.at, to: p.at + bucketMs });
    nights.set(night, spans);
  }
  return [...nights.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([night, spans]) => ({
      night,
      start: spans[0]!.from,
      end: Math.max(...spans.map((s) => s.to)),
      spans,
    }));
}

/** Minutes spent at each stress level over the points. */
export function stressMinutes(
  points: readonly HistoryPoint[],
  bucketMinutes: number,
): Record<StressLevel, number> {
  const minutes = Object.fromEntries(STRESS_LEVELS.map((l) => [l, 0])) as Record<
    StressLevel,
    number
  >;
  for (const point of points)
    if (point.stressLevel != null) minutes[point.stressLevel] += bucketMinutes;
  return minutes;
}

/** A stress level as a number for the chart: NONE 0 ... OVERLOAD 4. */
export const stressIndex = (level: StressLevel | null | undefined): number | null =>
  level == null ? null : STRESS_LEVELS.indexOf(level);

export interface Range {
  min: number;
  avg: number;
  max: number;
}

/** Min / average / max of the values that exist; null when none does. */
export function rangeOf(values: readonly (number | null | undefined)[]): Range | null {
  const present = values.filter((v): v is number => typeof v === 'number');
  if (present.length === 0) return null;
  return {
    min: Math.min(...present),
    avg: present.reduce((a, b) => a + b, 0) / present.length,
    max: Math.max(...present),
  };
}

/** "7時間5分" / "7 h 5 min" parts: whole hours and the rest. */
export const hoursAndMinutes = (minutes: number) => ({
  hours: Math.floor(minutes / 60),
  minutes: Math.round(minutes % 60),
});

export interface StepsRow {
  /** `YYYY-MM-DD` (week, month) or `YYYY-MM-DDTHH` (day: one row an hour), in the organisation's zone. */
  key: string;
  steps: number;
}

const zoneParts = (at: string, timeZone?: string) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(at))
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, hour: p.hour ?? '00' };
};

/**
 * Steps as the period switch says: per hour over a day, per local date over a week or a month (dates in
 * `timeZone`, the organisation's), newest first; only rows with a reading of steps.
 */
export function stepsBy(
  points: readonly HistoryPoint[],
  period: 'day' | 'week' | 'month',
  timeZone?: string,
): StepsRow[] {
  const sums = new Map<string, number>();
  for (const point of points) {
    if (typeof point.steps !== 'number') continue;
    const { date, hour } = zoneParts(point.at, timeZone);
    const key = period === 'day' ? `${date}T${hour}` : date;
    sums.set(key, (sums.get(key) ?? 0) + point.steps);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([key, steps]) => ({ key, steps }));
}
