import { z } from 'zod';

export const id = z.string().min(1).max(64);
/** A path that names a user: `/…/{uid}/…` (members, a wearer's bracelet). */
export const uidParams = z.object({ uid: id });
/** Query booleans arrive as text; 'true'/'1' mean yes. */
export const queryFlag = z.enum(['true', 'false', '1', '0']);
export const isFlagSet = (v: z.infer<typeof queryFlag> | undefined): boolean =>
  v === 'true' || v === '1';

const OFFSET = /([+-])(\d\d):(\d\d)$/;
/**
 * An ISO 8601 date-time with an offset that PostgreSQL's timestamptz can hold and JavaScript can print back
 * as ISO. zod's datetime accepts year 0000 and offsets up to ±23:59, which the database refuses, and an
 * offset can carry year 0001 into year 0 (or 9999 into 10000) in UTC: each was a 500.
 */
export const isoInstant = z.iso.datetime({ offset: true }).refine(
  (s) => {
    const year = new Date(s).getUTCFullYear();
    return Number(OFFSET.exec(s)?.[2] ?? 0) <= 15 && year >= 1 && year <= 9999;
  },
  { message: 'must be a date-time within years 0001-9999 (UTC) with a UTC offset within ±15:59' },
);
/**
 * A calendar month `YYYY-MM` from 1970 on: the reports' months. Year 0000 has no calendar in the database and a
 * month before the first reading is never asked for (each early year was a 500 in the robustness suite).
 */
export const yearMonth = z
  .string()
  .regex(/^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])$/, 'must be a month YYYY-MM, 1970-01 or later');
export const errorBody = z.object({
  statusCode: z.number(),
  error: z.string(),
  message: z.string(),
  code: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  retryAfterSeconds: z.number().int().positive().optional(),
});
