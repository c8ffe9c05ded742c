import { z } from 'zod';

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (00:00-23:59)');
export const daySchedule = z.object({ enabled: z.boolean(), startTime: time, endTime: time });
export type DaySchedule = z.infer<typeof daySchedule>;
export const weeklySchedule = z.object(
  Object.fromEntries(WEEKDAYS.map((d) => [d, daySchedule])) as Record<Weekday, typeof daySchedule>,
);
export type WeeklySchedule = z.infer<typeof weeklySchedule>;

const every = (day: DaySchedule): WeeklySchedule =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, { ...day }])) as WeeklySchedule;

/** Default: every day 00:00-23:59 (spec section 9). */
export const DEFAULT_SCHEDULE: WeeklySchedule = every({
  enabled: true,
  startTime: '00:00',
  endTime: '23:59',
});

/** Business preset: weekdays 09:00-18:00, weekend off (spec section 9). */
export const BUSINESS_SCHEDULE: WeeklySchedule = {
  ...every({ enabled: true, startTime: '09:00', endTime: '18:00' }),
  saturday: { enabled: false, startTime: '09:00', endTime: '18:00' },
  sunday: { enabled: false, startTime: '09:00', endTime: '18:00' },
};

const JS_DAY_TO_WEEKDAY: Weekday[] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

/** Options of {@link isWithinSchedule}. */
export interface ScheduleOptions {
  /**
   * Whether a local date (YYYY-MM-DD, in the schedule's time zone) is a public holiday. A holiday
   * reads the Sunday row of the schedule (a holiday counts as the weekend, issue 38). Omitted: no
   * holidays, every date reads its own weekday.
   */
  isHoliday?: (localDate: string) => boolean;
}

function localParts(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    dayIndex: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday')),
    minutes: Number(get('hour')) * 60 + Number(get('minute')),
  };
}

/** The calendar date before a YYYY-MM-DD date. */
function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * Whether a moment falls inside a weekly schedule, read in the given IANA time zone.
 * Both ends are inclusive to the minute; endTime before startTime spans midnight.
 * With `isHoliday`, a public holiday reads the Sunday row (also for the overnight part of a
 * window that began on a holiday).
 */
export function isWithinSchedule(
  schedule: WeeklySchedule,
  at: Date,
  timeZone = 'Asia/Tokyo',
  options: ScheduleOptions = {},
): boolean {
  const { date, dayIndex, minutes } = localParts(at, timeZone);
  const holiday = options.isHoliday ?? (() => false);
  const toMin = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const rowOf = (index: number, localDate: string): DaySchedule =>
    schedule[holiday(localDate) ? 'sunday' : (JS_DAY_TO_WEEKDAY[index] ?? 'monday')];
  const today = rowOf(dayIndex, date);
  const start = toMin(today.startTime);
  const end = toMin(today.endTime);
  if (start <= end) return today.enabled && minutes >= start && minutes <= end;
  // Overnight window: the part after start belongs to today, the part before end to yesterday.
  const yesterday = rowOf((dayIndex + 6) % 7, dayBefore(date));
  const yStart = toMin(yesterday.startTime);
  const yEnd = toMin(yesterday.endTime);
  if (today.enabled && minutes >= start) return true;
  return yesterday.enabled && yStart > yEnd && minutes <= yEnd;
}
