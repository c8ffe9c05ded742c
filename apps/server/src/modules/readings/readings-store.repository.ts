import { prepared, type Queryable } from '../../db/client.js';
import type { Statement } from '../../db/statement.js';

/** A validated reading resolved to its bracelet and wearer, ready to store. */
export interface ReadingRow {
  braceletId: string;
  wearerId: string;
  at: Date;
  heartRate: number | null;
  skinTemperature: number | null;
  worn: boolean | null;
  steps: number | null;
  sleepStage: number | null;
  stressLevel: string | null;
  battery: number | null;
  /** How strongly the sending gateway heard the bracelet (dBm), when it says. */
  rssi: number | null;
  /** Gateway whose environment sensor gives this reading's WBGT. */
  environmentGatewayId: string;
}

export interface StoredReadingKey {
  braceletId: string;
  at: Date;
  wbgt: number | null;
}

const col = <T, V>(rows: T[], pick: (r: T) => V): V[] => rows.map(pick);

/** A gateway's environment reading. */
export interface EnvironmentRow {
  at: Date;
  temperature: number | null;
  humidity: number | null;
  wbgt: number | null;
}

const INSERT_READINGS = prepared(
  `WITH env AS (
     SELECT * FROM unnest($3::timestamptz[], $4::real[], $5::real[], $6::real[])
       AS v(at, temperature, humidity, wbgt)
   ), env_ins AS (
     INSERT INTO environment_readings (gateway_id, at, organization_id, temperature, humidity, wbgt)
     SELECT $7, at, $1, temperature, humidity, wbgt FROM env
     ON CONFLICT DO NOTHING
     RETURNING at, temperature, humidity, wbgt
   ), src AS (
     SELECT x.b AS bracelet_id, x.t AS at, x.w AS wearer_id, x.h AS heart_rate,
            x.s AS skin_temperature, x.o AS worn, x.p AS steps, x.l AS sleep_stage,
            x.v AS stress_level, x.y AS battery, x.g AS env_gateway, x.r AS rssi
       FROM json_to_recordset($2::json)
         AS x(b text, t timestamptz, w text, h real, s real, o boolean, p int, l smallint, v text,
              y smallint, g text, r smallint)
   ), ins AS (
     INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate,
                           skin_temperature, worn, steps, sleep_stage, stress_level, battery,
                           gateway_id, rssi, wbgt)
     SELECT s.bracelet_id, s.at, s.wearer_id, $1, s.heart_rate, s.skin_temperature, s.worn,
            s.steps, s.sleep_stage, s.stress_level, s.battery, $7, s.rssi,
            (SELECT c.wbgt FROM (
                (SELECT e.at, e.wbgt FROM environment_readings e
                  WHERE e.gateway_id = s.env_gateway AND e.at <= s.at
                    AND e.at > s.at - interval '30 minutes' AND e.wbgt IS NOT NULL
                  ORDER BY e.at DESC LIMIT 1)
                UNION ALL
                (SELECT v.at, v.wbgt FROM env v
                  WHERE s.env_gateway = $7 AND v.at <= s.at
                    AND v.at > s.at - interval '30 minutes' AND v.wbgt IS NOT NULL
                  ORDER BY v.at DESC LIMIT 1)
              ) c ORDER BY c.at DESC LIMIT 1)
       FROM src s
     ON CONFLICT DO NOTHING
     RETURNING bracelet_id, at, wbgt
   )
   SELECT 'r' AS kind, bracelet_id AS "braceletId", at, wbgt, NULL::real AS temperature, NULL::real AS humidity
     FROM ins
   UNION ALL
   SELECT 'e', NULL, at, wbgt, temperature, humidity FROM env_ins`,
);

/** A phone gateway's position of a wearer, from a reading or an event. */
export interface PositionRow {
  wearerId: string;
  braceletId: string;
  latitude: number;
  longitude: number;
  accuracy: number;
  at: Date;
}

const INSERT_POSITIONS = prepared(
  `INSERT INTO wearer_positions (wearer_id, at, organization_id, bracelet_id, gateway_id,
                                 latitude, longitude, accuracy)
   SELECT w, a, $1, b, $2, lat, lon, acc
     FROM unnest($3::text[], $4::timestamptz[], $5::text[], $6::float8[], $7::float8[], $8::real[])
       AS x(w, a, b, lat, lon, acc)
   ON CONFLICT DO NOTHING`,
);

export function readingsStoreRepository(db: Queryable) {
  return {
    /**
     * Stores a batch in one statement: the gateway's new environment readings and the new bracelet
     * readings (a retry or redelivery is skipped by the primary key). Rollups are written later,
     * by the flush (rollup-folder.ts). A reading's WBGT = the latest environment reading of its gateway at or
     * before it within 30 minutes, this batch's included. Returns the new readings and the new
     * environment readings only (a redelivered one is not returned).
     */
    async insertReadings(
      organizationId: string,
      gatewayId: string,
      rows: ReadingRow[],
      environment: EnvironmentRow[],
    ): Promise<{ readings: StoredReadingKey[]; environmentNew: EnvironmentRow[] }> {
      if (rows.length === 0 && environment.length === 0)
        return { readings: [], environmentNew: [] };
      const result = await db.query<
        StoredReadingKey & { kind: 'r' | 'e'; temperature: number | null; humidity: number | null }
      >(INSERT_READINGS, [
        organizationId,
        // One JSON parameter for the rows (short keys, the recordset's columns above): serialised by
        // JSON.stringify at once instead of twelve text arrays escaped element by element (issue 20).
        JSON.stringify(
          rows.map((r) => ({
            b: r.braceletId,
            t: r.at.toISOString(),
            w: r.wearerId,
            h: r.heartRate,
            s: r.skinTemperature,
            o: r.worn,
            p: r.steps,
            l: r.sleepStage,
            v: r.stressLevel,
            y: r.battery,
            g: r.environmentGatewayId,
            r: r.rssi,
          })),
        ),
        col(environment, (e) => e.at.toISOString()),
        col(environment, (e) => e.temperature),
        col(environment, (e) => e.humidity),
        col(environment, (e) => e.wbgt),
        gatewayId,
      ]);
      const readings: StoredReadingKey[] = [];
      const environmentNew: EnvironmentRow[] = [];
      for (const row of result) {
        if (row.kind === 'e')
          environmentNew.push({
            at: new Date(row.at),
            temperature: row.temperature,
            humidity: row.humidity,
            wbgt: row.wbgt,
          });
        else readings.push({ braceletId: row.braceletId, at: row.at, wbgt: row.wbgt });
      }
      return { readings, environmentNew };
    },

    /** Stores positions once (a redelivered batch adds nothing): only batches that carry one pay. */
    async insertPositions(
      organizationId: string,
      gatewayId: string,
      rows: PositionRow[],
    ): Promise<void> {
      if (rows.length === 0) return;
      await db.query(INSERT_POSITIONS, [
        organizationId,
        gatewayId,
        col(rows, (r) => r.wearerId),
        col(rows, (r) => r.at.toISOString()),
        col(rows, (r) => r.braceletId),
        col(rows, (r) => r.latitude),
        col(rows, (r) => r.longitude),
        col(rows, (r) => r.accuracy),
      ]);
    },
  };
}

/** Recomputes the hourly rollup of each (wearer, hour) a batch touched from its minutes. */
export function recomputeHours(touched: { wearerId: string; hour: Date }[]): Statement | null {
  if (touched.length === 0) return null;
  return {
    text: `INSERT INTO reading_hours AS r (wearer_id, bucket, organization_id, reading_count, hr_count,
       hr_sum, hr_min, hr_max, temp_count, temp_sum, temp_max, steps, worn_minutes, data_minutes,
       wbgt_max, sleep_stage_minutes, stress_level, latest_at)
     SELECT m.wearer_id, h.bucket, min(m.organization_id), sum(m.reading_count), sum(m.hr_count),
            sum(m.hr_sum), min(m.hr_min), max(m.hr_max), sum(m.temp_count), sum(m.temp_sum),
            max(m.temp_max), sum(m.steps), count(*) FILTER (WHERE m.worn_count > 0), count(*),
            max(m.wbgt_max),
            jsonb_build_object('1', count(*) FILTER (WHERE m.sleep_stage = 1),
                               '2', count(*) FILTER (WHERE m.sleep_stage = 2),
                               '3', count(*) FILTER (WHERE m.sleep_stage = 3),
                               '4', count(*) FILTER (WHERE m.sleep_stage = 4)),
            (array_agg(m.stress_level ORDER BY m.latest_at DESC) FILTER (WHERE m.stress_level IS NOT NULL))[1],
            max(m.latest_at)
       FROM unnest($1::text[], $2::timestamptz[]) AS h(wearer_id, bucket)
       JOIN reading_minutes m ON m.wearer_id = h.wearer_id
        AND m.bucket >= h.bucket AND m.bucket < h.bucket + interval '1 hour'
      GROUP BY m.wearer_id, h.bucket
     ON CONFLICT (wearer_id, bucket) DO UPDATE SET
       reading_count = excluded.reading_count, hr_count = excluded.hr_count,
       hr_sum = excluded.hr_sum, hr_min = excluded.hr_min, hr_max = excluded.hr_max,
       temp_count = excluded.temp_count, temp_sum = excluded.temp_sum,
       temp_max = excluded.temp_max, steps = excluded.steps,
       worn_minutes = excluded.worn_minutes, data_minutes = excluded.data_minutes,
       wbgt_max = excluded.wbgt_max, sleep_stage_minutes = excluded.sleep_stage_minutes,
       stress_level = excluded.stress_level, latest_at = excluded.latest_at`,
    params: [touched.map((t) => t.wearerId), touched.map((t) => t.hour.toISOString())],
  };
}
