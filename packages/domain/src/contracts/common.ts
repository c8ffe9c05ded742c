import { z } from 'zod';

export const id = z.string().min(1).max(64);

const OFFSET = /([+-])(\d\d):(\d\d)$/;
/**
 * An ISO 8601 date-time with an offset that PostgreSQL's timestamptz can hold. zod's datetime accepts year
 * 0000 and offsets up to ±23:59, which the database refuses: such a filter or reading time was a 500.
 */
export const isoInstant = z.iso
  .datetime({ offset: true })
  .refine((s) => !s.startsWith('0000') && Number(OFFSET.exec(s)?.[2] ?? 0) <= 15, {
    message: 'must be a date-time from year 0001 with a UTC offset within ±15:59',
  });
export const errorBody = z.object({
  statusCode: z.number(),
  error: z.string(),
  message: z.string(),
  code: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
