import type { MonthlyReportDay, MonthlyReportResponse } from '@wearable/domain';

/** YYYY-MM moved by whole months. */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export const isMonth = (value: string | null): value is string =>
  value !== null && /^\d{4}-(0[1-9]|1[0-2])$/.test(value);

/** Weekday of a calendar date (0 Sunday .. 6 Saturday); the date is already the organisation's local day. */
export const weekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();

type Figures = MonthlyReportResponse['totals'];

/** Minutes asleep (every stage but awake). */
export const asleepMinutes = (f: Figures): number =>
  f.sleepMinutes.DEEP_SLEEP + f.sleepMinutes.LIGHT_SLEEP + f.sleepMinutes.RESTLESS_SLEEP;
/** Hours at a high or overloaded stress level. */
export const strainedHours = (f: Figures): number => f.stressHours.HIGH + f.stressHours.OVERLOAD;
export const alertCount = (f: Figures): number =>
  Object.values(f.alerts).reduce((a, b) => a + b, 0);

/** Days with any measurement (worn time, heart rate, steps or sleep): averages per day count only these. */
export const measuredDays = (days: MonthlyReportDay[]): MonthlyReportDay[] =>
  days.filter(
    (d) => d.wornMinutes > 0 || d.heartRate.avg !== null || d.steps > 0 || asleepMinutes(d) > 0,
  );

export function perMeasuredDay(
  days: MonthlyReportDay[],
  of: (d: MonthlyReportDay) => number,
): number | null {
  const measured = measuredDays(days);
  return measured.length === 0
    ? null
    : Math.round(measured.reduce((s, d) => s + of(d), 0) / measured.length);
}

/** { hours, minutes } of a number of minutes, for "7時間05分". */
export const hoursMinutes = (total: number) => ({
  hours: Math.floor(total / 60),
  minutes: String(total % 60).padStart(2, '0'),
});
