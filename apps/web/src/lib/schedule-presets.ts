import { BUSINESS_SCHEDULE, DEFAULT_SCHEDULE, type WeeklySchedule } from '@wearable/domain';

/** The two schedules a schedule editor offers in one press (personal alert settings, notice recipients). */
export const SCHEDULE_PRESETS = {
  everyDay: DEFAULT_SCHEDULE,
  business: BUSINESS_SCHEDULE,
} as const;
export type SchedulePreset = keyof typeof SCHEDULE_PRESETS;

const copySchedule = (s: WeeklySchedule): WeeklySchedule => structuredClone(s);

/** The preset as a fresh copy, so editing one day never changes the domain constant. */
export const presetSchedule = (preset: SchedulePreset): WeeklySchedule =>
  copySchedule(SCHEDULE_PRESETS[preset]);

/** Which preset the schedule equals, if any (the preset buttons show it as pressed). */
export function presetOf(schedule: WeeklySchedule): SchedulePreset | null {
  const same = (a: WeeklySchedule, b: WeeklySchedule) => JSON.stringify(a) === JSON.stringify(b);
  return (
    (Object.keys(SCHEDULE_PRESETS) as SchedulePreset[]).find((p) =>
      same(schedule, SCHEDULE_PRESETS[p]),
    ) ?? null
  );
}
