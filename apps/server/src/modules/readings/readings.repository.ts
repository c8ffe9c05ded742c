import type { Queryable } from '../../db/client.js';

/** One chart point: an aggregate of the readings in [at, at + bucketSeconds). */
export interface HistoryPoint {
  at: Date;
  heartRateAvg: number | null;
  heartRateMin: number | null;
  heartRateMax: number | null;
  skinTemperatureAvg: number | null;
  skinTemperatureMax: number | null;
  steps: number;
  /** Share (0..1) of the data in this bucket that said the bracelet was worn, null when none said. */
  wornRatio: number | null;
  /** Latest sleep stage / stress level in the bucket. */
  sleepStage: number | null;
  stressLevel: string | null;
  wbgtMax: number | null;
}

export type HistoryResolution = 'reading' | 'minute' | 'hour';
export interface History {
  resolution: HistoryResolution;
  bucketSeconds: number;
  points: HistoryPoint[];
}

const DAY = 86_400_000;
/** Full resolution is kept this long by default; older ranges read the minute rollup. */
export const MINUTE_ROLLUP_RETENTION_DAYS = 400;

/**
 * Chooses the source by range (full resolution up to 6 hours, minutes up to 31 days, hours
 * beyond, or the coarser one when the finer has expired) and downsamples to about `points`.
 */
export function chooseResolution(
  from: Date,
  to: Date,
  now: Date,
  readingsRetentionDays: number,
): HistoryResolution {
  const span = to.getTime() - from.getTime();
  const age = now.getTime() - from.getTime();
  if (span <= 6 * 3_600_000 && age < readingsRetentionDays * DAY) return 'reading';
  if (span <= 31 * DAY && age < MINUTE_ROLLUP_RETENTION_DAYS * DAY) return 'minute';
  return 'hour';
}

const SOURCES: Record<HistoryResolution, { seconds: number; sql: string }> = {
  reading: {
    seconds: 1,
    sql: `SELECT date_bin($4::interval, at, $2::timestamptz) AS at,
            avg(heart_rate) AS "heartRateAvg", min(heart_rate) AS "heartRateMin",
            max(heart_rate) AS "heartRateMax", avg(skin_temperature) AS "skinTemperatureAvg",
            max(skin_temperature) AS "skinTemperatureMax", coalesce(sum(steps), 0) AS steps,
            avg(CASE WHEN worn THEN 1.0 WHEN NOT worn THEN 0.0 END) AS "wornRatio",
            (array_agg(sleep_stage ORDER BY at DESC) FILTER (WHERE sleep_stage IS NOT NULL))[1] AS "sleepStage",
            (array_agg(stress_level ORDER BY at DESC) FILTER (WHERE stress_level IS NOT NULL))[1] AS "stressLevel",
            max(wbgt) AS "wbgtMax"
       FROM readings WHERE wearer_id = $1 AND at >= $2 AND at < $3
      GROUP BY 1 ORDER BY 1`,
  },
  minute: {
    seconds: 60,
    sql: `SELECT date_bin($4::interval, bucket, $2::timestamptz) AS at,
            sum(hr_sum) / nullif(sum(hr_count), 0) AS "heartRateAvg", min(hr_min) AS "heartRateMin",
            max(hr_max) AS "heartRateMax", sum(temp_sum) / nullif(sum(temp_count), 0) AS "skinTemperatureAvg",
            max(temp_max) AS "skinTemperatureMax", sum(steps) AS steps,
            sum(worn_count)::float8 / nullif(sum(worn_count + not_worn_count), 0) AS "wornRatio",
            (array_agg(sleep_stage ORDER BY bucket DESC) FILTER (WHERE sleep_stage IS NOT NULL))[1] AS "sleepStage",
            (array_agg(stress_level ORDER BY bucket DESC) FILTER (WHERE stress_level IS NOT NULL))[1] AS "stressLevel",
            max(wbgt_max) AS "wbgtMax"
       FROM reading_minutes WHERE wearer_id = $1 AND bucket >= $2 AND bucket < $3
      GROUP BY 1 ORDER BY 1`,
  },
  hour: {
    seconds: 3600,
    sql: `SELECT date_bin($4::interval, bucket, $2::timestamptz) AS at,
            sum(hr_sum) / nullif(sum(hr_count), 0) AS "heartRateAvg", min(hr_min) AS "heartRateMin",
            max(hr_max) AS "heartRateMax", sum(temp_sum) / nullif(sum(temp_count), 0) AS "skinTemperatureAvg",
            max(temp_max) AS "skinTemperatureMax", sum(steps) AS steps,
            sum(worn_minutes)::float8 / nullif(sum(data_minutes), 0) AS "wornRatio",
            NULL::smallint AS "sleepStage",
            (array_agg(stress_level ORDER BY bucket DESC) FILTER (WHERE stress_level IS NOT NULL))[1] AS "stressLevel",
            max(wbgt_max) AS "wbgtMax"
       FROM reading_hours WHERE wearer_id = $1 AND bucket >= $2 AND bucket < $3
      GROUP BY 1 ORDER BY 1`,
  },
};

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A wearer's history between from and to, downsampled to about `points` points. */
export async function historyPoints(
  db: Queryable,
  wearerId: string,
  from: Date,
  to: Date,
  points: number,
  opts: { now?: Date; readingsRetentionDays?: number } = {},
): Promise<History> {
  const resolution = chooseResolution(
    from,
    to,
    opts.now ?? new Date(),
    opts.readingsRetentionDays ?? 30,
  );
  const source = SOURCES[resolution];
  const spanSeconds = Math.max(1, (to.getTime() - from.getTime()) / 1000);
  const bucketSeconds = Math.max(source.seconds, Math.ceil(spanSeconds / Math.max(1, points)));
  const rows = await db.query<Record<string, unknown>>(source.sql, [
    wearerId,
    from.toISOString(),
    to.toISOString(),
    `${bucketSeconds} seconds`,
  ]);
  return {
    resolution,
    bucketSeconds,
    points: rows.map((r) => ({
      at: new Date(r.at as Date),
      heartRateAvg: num(r.heartRateAvg),
      heartRateMin: num(r.heartRateMin),
      heartRateMax: num(r.heartRateMax),
      skinTemperatureAvg: num(r.skinTemperatureAvg),
      skinTemperatureMax: num(r.skinTemperatureMax),
      steps: num(r.steps) ?? 0,
      wornRatio: num(r.wornRatio),
      sleepStage: num(r.sleepStage),
      stressLevel: (r.stressLevel as string | null) ?? null,
      wbgtMax: num(r.wbgtMax),
    })),
  };
}
