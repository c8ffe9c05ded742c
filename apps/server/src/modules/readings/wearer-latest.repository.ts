import { prepared, type Queryable } from '../../db/client.js';
import type { Statement } from '../../db/statement.js';

/** A wearer's newest values from one batch (each null when the batch said nothing of it). */
export interface WearerLatestUpdate {
  wearerId: string;
  braceletId: string;
  heartRate: number | null;
  heartRateAt: Date | null;
  skinTemperature: number | null;
  worn: boolean | null;
  battery: number | null;
  sleepStage: number | null;
  stressLevel: string | null;
  /** Steps of stepsDate (local day of the newest reading) in this batch. */
  stepsToday: number;
  stepsDate: string;
  wbgt: number | null;
  lastSeenAt: Date;
}

/**
 * Upserts wearer_latest. Values older than what is stored only fill gaps, so a late batch never
 * overwrites newer values, and writing the same update twice changes nothing. Steps are not
 * added here: `recomputeStepsToday` (run next) sums the minute rollups of the local day.
 */
function upsertWearerLatest(
  updates: (WearerLatestUpdate & { organizationId: string })[],
): Statement | null {
  if (updates.length === 0) return null;
  const newer = 'excluded.last_seen_at >= coalesce(w.last_seen_at, excluded.last_seen_at)';
  const pick = (c: string) =>
    `${c} = CASE WHEN ${newer} THEN coalesce(excluded.${c}, w.${c}) ELSE coalesce(w.${c}, excluded.${c}) END`;
  return {
    text: `INSERT INTO wearer_latest AS w (wearer_id, organization_id, bracelet_id, heart_rate,
       heart_rate_at, skin_temperature, worn, battery, sleep_stage, stress_level, steps_today,
       steps_date, wbgt, last_seen_at, updated_at)
     SELECT x.wearer_id, x.organization_id, x.bracelet_id, x.heart_rate, x.heart_rate_at, x.skin_temperature,
            x.worn, x.battery, x.sleep_stage, x.stress_level, 0, x.steps_date, x.wbgt,
            x.last_seen_at, now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::real[], $5::timestamptz[], $6::real[],
                   $7::boolean[], $8::smallint[], $9::smallint[], $10::text[],
                   $11::date[], $12::real[], $13::timestamptz[])
         AS x(organization_id, wearer_id, bracelet_id, heart_rate, heart_rate_at, skin_temperature, worn, battery,
              sleep_stage, stress_level, steps_date, wbgt, last_seen_at)
     ON CONFLICT (wearer_id) DO UPDATE SET
       organization_id = excluded.organization_id,
       bracelet_id = CASE WHEN ${newer} THEN excluded.bracelet_id ELSE w.bracelet_id END,
       heart_rate = CASE WHEN excluded.heart_rate_at >= coalesce(w.heart_rate_at, excluded.heart_rate_at)
         THEN excluded.heart_rate ELSE w.heart_rate END,
       heart_rate_at = greatest(w.heart_rate_at, excluded.heart_rate_at),
       ${['skin_temperature', 'worn', 'battery', 'sleep_stage', 'stress_level', 'wbgt'].map(pick).join(',\n       ')},
       steps_date = greatest(w.steps_date, excluded.steps_date),
       last_seen_at = greatest(w.last_seen_at, excluded.last_seen_at),
       updated_at = now()`,
    params: [
      updates.map((u) => u.organizationId),
      updates.map((u) => u.wearerId),
      updates.map((u) => u.braceletId),
      updates.map((u) => u.heartRate),
      updates.map((u) => u.heartRateAt?.toISOString() ?? null),
      updates.map((u) => u.skinTemperature),
      updates.map((u) => u.worn),
      updates.map((u) => u.battery),
      updates.map((u) => u.sleepStage),
      updates.map((u) => u.stressLevel),
      updates.map((u) => u.stepsDate),
      updates.map((u) => u.wbgt),
      updates.map((u) => u.lastSeenAt.toISOString()),
    ],
  };
}

/**
 * Merges two folded updates of one wearer the way the upsert merges one into the stored row
 * (newer wins, older only fills gaps). Steps are left to recomputeStepsToday.
 */
export function mergeLatest<T extends WearerLatestUpdate>(a: T, b: T): T {
  const [older, newer] = b.lastSeenAt.getTime() >= a.lastSeenAt.getTime() ? [a, b] : [b, a];
  const hr =
    older.heartRateAt && (!newer.heartRateAt || older.heartRateAt > newer.heartRateAt)
      ? older
      : newer;
  return {
    ...newer,
    heartRate: hr.heartRate,
    heartRateAt: hr.heartRateAt,
    skinTemperature: newer.skinTemperature ?? older.skinTemperature,
    worn: newer.worn ?? older.worn,
    battery: newer.battery ?? older.battery,
    sleepStage: newer.sleepStage ?? older.sleepStage,
    stressLevel: newer.stressLevel ?? older.stressLevel,
    wbgt: newer.wbgt ?? older.wbgt,
    stepsDate: newer.stepsDate > older.stepsDate ? newer.stepsDate : older.stepsDate,
    stepsToday: 0,
  };
}

/**
 * steps_today = the steps of the minute rollups within steps_date (the organisation's local
 * day of the newest reading): recomputed, not added, so a flush written twice (or a recovery
 * after a crash) gives the same figure. Run after the minutes were recomputed. $1: wearer ids.
 */
const recomputeStepsToday = `
  UPDATE wearer_latest w
     SET steps_today = coalesce((
           SELECT sum(m.steps) FROM reading_minutes m
            WHERE m.wearer_id = w.wearer_id
              AND m.bucket >= (w.steps_date::timestamp AT TIME ZONE o.time_zone)
              AND m.bucket < ((w.steps_date + 1)::timestamp AT TIME ZONE o.time_zone)), 0)
    FROM organizations o
   WHERE w.wearer_id = ANY($1::text[]) AND o.id = w.organization_id AND w.steps_date IS NOT NULL`;

/** The SQL of wearer_latest: one flush's newest values, then their steps of the day. */
export function wearerLatestRepository(db: Queryable) {
  return {
    /** Upserts the flush's updates (upsertWearerLatest), then recomputes their steps_today. */
    async writeLatest(updates: (WearerLatestUpdate & { organizationId: string })[]): Promise<void> {
      const upsert = upsertWearerLatest(updates);
      if (upsert) await db.query(prepared(upsert.text), upsert.params);
      await db.query(prepared(recomputeStepsToday), [updates.map((u) => u.wearerId)]);
    },
  };
}
