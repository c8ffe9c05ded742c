import type { Statement } from './statement.js';

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
 * Upserts wearer_latest. Values from a batch older than what is stored only fill gaps, so a
 * late batch never overwrites newer values; steps add up within the same local day.
 */
export function upsertWearerLatest(
  organizationId: string,
  updates: WearerLatestUpdate[],
): Statement | null {
  if (updates.length === 0) return null;
  const newer = 'excluded.last_seen_at >= coalesce(w.last_seen_at, excluded.last_seen_at)';
  const pick = (c: string) =>
    `${c} = CASE WHEN ${newer} THEN coalesce(excluded.${c}, w.${c}) ELSE coalesce(w.${c}, excluded.${c}) END`;
  return {
    text: `INSERT INTO wearer_latest AS w (wearer_id, organization_id, bracelet_id, heart_rate,
       heart_rate_at, skin_temperature, worn, battery, sleep_stage, stress_level, steps_today,
       steps_date, wbgt, last_seen_at, updated_at)
     SELECT x.wearer_id, $1, x.bracelet_id, x.heart_rate, x.heart_rate_at, x.skin_temperature,
            x.worn, x.battery, x.sleep_stage, x.stress_level, x.steps_today, x.steps_date, x.wbgt,
            x.last_seen_at, now()
       FROM unnest($2::text[], $3::text[], $4::real[], $5::timestamptz[], $6::real[],
                   $7::boolean[], $8::smallint[], $9::smallint[], $10::text[], $11::int[],
                   $12::date[], $13::real[], $14::timestamptz[])
         AS x(wearer_id, bracelet_id, heart_rate, heart_rate_at, skin_temperature, worn, battery,
              sleep_stage, stress_level, steps_today, steps_date, wbgt, last_seen_at)
     ON CONFLICT (wearer_id) DO UPDATE SET
       organization_id = excluded.organization_id,
       bracelet_id = CASE WHEN ${newer} THEN excluded.bracelet_id ELSE w.bracelet_id END,
       heart_rate = CASE WHEN excluded.heart_rate_at >= coalesce(w.heart_rate_at, excluded.heart_rate_at)
         THEN excluded.heart_rate ELSE w.heart_rate END,
       heart_rate_at = greatest(w.heart_rate_at, excluded.heart_rate_at),
       ${['skin_temperature', 'worn', 'battery', 'sleep_stage', 'stress_level', 'wbgt'].map(pick).join(',\n       ')},
       steps_today = CASE
         WHEN w.steps_date IS NULL OR excluded.steps_date > w.steps_date THEN excluded.steps_today
         WHEN excluded.steps_date = w.steps_date THEN w.steps_today + excluded.steps_today
         ELSE w.steps_today END,
       steps_date = greatest(w.steps_date, excluded.steps_date),
       last_seen_at = greatest(w.last_seen_at, excluded.last_seen_at),
       updated_at = now()`,
    params: [
      organizationId,
      updates.map((u) => u.wearerId),
      updates.map((u) => u.braceletId),
      updates.map((u) => u.heartRate),
      updates.map((u) => u.heartRateAt?.toISOString() ?? null),
      updates.map((u) => u.skinTemperature),
      updates.map((u) => u.worn),
      updates.map((u) => u.battery),
      updates.map((u) => u.sleepStage),
      updates.map((u) => u.stressLevel),
      updates.map((u) => u.stepsToday),
      updates.map((u) => u.stepsDate),
      updates.map((u) => u.wbgt),
      updates.map((u) => u.lastSeenAt.toISOString()),
    ],
  };
}
