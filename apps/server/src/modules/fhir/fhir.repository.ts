import type { Queryable } from '../../db/client.js';
import type { ExportBracelet, ExportWearer, Resolution, RollupRow } from './fhir-bundle.js';

const ROLLUP_TABLE: Record<Resolution, string> = {
  minute: 'reading_minutes',
  hour: 'reading_hours',
};

/** Reads for the FHIR export; each call reads one page, so a month is never held in memory. */
export function fhirRepository(db: Queryable) {
  return {
    async wearer(uid: string): Promise<(ExportWearer & { timeZone: string }) | undefined> {
      const [row] = await db.query<{
        uid: string;
        name: string;
        birth_date: string | null;
        time_zone: string;
      }>(
        `SELECT u.id AS uid, u.name, u.birth_date::text AS birth_date, o.time_zone
           FROM users u JOIN organizations o ON o.id = u.organization_id
          WHERE u.id = $1 AND u.deleted_at IS NULL`,
        [uid],
      );
      return (
        row && { uid: row.uid, name: row.name, birthDate: row.birth_date, timeZone: row.time_zone }
      );
    },

    /** The bracelets this wearer wore at some time in [from, to). */
    async bracelets(uid: string, from: Date, to: Date): Promise<ExportBracelet[]> {
      const rows = await db.query<{
        id: string;
        serial_number: string;
        device_name: string;
        started_at: Date | string;
        ended_at: Date | string | null;
      }>(
        `SELECT b.id, b.serial_number, b.device_name, a.started_at, a.ended_at
           FROM bracelet_assignments a JOIN bracelets b ON b.id = a.bracelet_id
          WHERE a.wearer_id = $1 AND a.started_at < $3 AND (a.ended_at IS NULL OR a.ended_at > $2)
          ORDER BY a.started_at`,
        [uid, from, to],
      );
      return rows.map((r) => ({
        id: r.id,
        serialNumber: r.serial_number,
        deviceName: r.device_name,
        from: new Date(r.started_at).getTime(),
        until: r.ended_at === null ? null : new Date(r.ended_at).getTime(),
      }));
    },

    /** Up to `limit` rollup rows after `after`, in time order (keyset paging). */
    async rollups(
      resolution: Resolution,
      uid: string,
      after: Date,
      to: Date,
      limit: number,
      inclusive: boolean,
    ): Promise<RollupRow[]> {
      const rows = await db.query<{
        bucket: Date | string;
        hr_count: number;
        hr_sum: number;
        temp_count: number;
        temp_sum: number;
        steps: number;
      }>(
        `SELECT bucket, hr_count, hr_sum, temp_count, temp_sum, steps
           FROM ${ROLLUP_TABLE[resolution]}
          WHERE wearer_id = $1 AND bucket ${inclusive ? '>=' : '>'} $2 AND bucket < $3
          ORDER BY bucket LIMIT $4`,
        [uid, after, to, limit],
      );
      return rows.map((r) => ({
        bucket: new Date(r.bucket),
        hrCount: Number(r.hr_count),
        hrSum: Number(r.hr_sum),
        tempCount: Number(r.temp_count),
        tempSum: Number(r.temp_sum),
        steps: Number(r.steps),
      }));
    },

    /** Steps of each whole local day inside [from, to), in the organisation's zone. */
    async dailySteps(
      uid: string,
      from: Date,
      to: Date,
      timeZone: string,
    ): Promise<{ start: Date; end: Date; steps: number }[]> {
      const rows = await db.query<{
        day_start: Date | string;
        day_end: Date | string;
        steps: number;
      }>(
        `SELECT day_start, day_end, steps FROM (
           SELECT date_trunc('day', bucket AT TIME ZONE $4) AT TIME ZONE $4 AS day_start,
                  (date_trunc('day', bucket AT TIME ZONE $4) + interval '1 day') AT TIME ZONE $4 AS day_end,
                  sum(steps)::int AS steps
             FROM reading_hours
            WHERE wearer_id = $1 AND bucket >= $2 AND bucket < $3
            GROUP BY 1, 2) d
          WHERE day_start >= $2 AND day_end <= $3 AND steps > 0
          ORDER BY day_start`,
        [uid, from, to, timeZone],
      );
      return rows.map((r) => ({
        start: new Date(r.day_start),
        end: new Date(r.day_end),
        steps: Number(r.steps),
      }));
    },
  };
}
