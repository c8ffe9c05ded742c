import { describe, expect, it } from 'vitest';
import {
  asleepMinutes,
  hoursMinutes,
  isMonth,
  measuredDays,
  perMeasuredDay,
  shiftMonth,
  weekdayOf,
} from './report-math';

const day = (date: string, steps: number, worn = 0) => ({
  date,
  heartRate: { avg: null, min: null, max: null },
  skinTemperature: { avg: null, max: null },
  steps,
  wornMinutes: worn,
  sleepMinutes: { DEEP_SLEEP: 60, LIGHT_SLEEP: 0, RESTLESS_SLEEP: 5, AWAKE: 30 },
  stressHours: { NONE: 0, LOW: 0, MEDIUM: 0, HIGH: 0, OVERLOAD: 0 },
  alerts: {},
});

describe('report math', () => {
  it('moves months across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
  });
  it('knows a month', () => {
    expect(isMonth('2026-11')).toBe(true);
    expect(isMonth('2026-13')).toBe(false);
    expect(isMonth(null)).toBe(false);
  });
  it('weekday of a local date', () => {
    expect(weekdayOf('2026-11-22')).toBe(0);
  });
  it('averages over measured days only', () => {
    const days = [
      day('2026-11-01', 100, 60),
      {
        ...day('2026-11-02', 0),
        sleepMinutes: { DEEP_SLEEP: 0, LIGHT_SLEEP: 0, RESTLESS_SLEEP: 0, AWAKE: 0 },
      },
      day('2026-11-03', 300),
    ];
    expect(measuredDays(days)).toHaveLength(2);
    expect(perMeasuredDay(days, (d) => d.steps)).toBe(200);
    expect(asleepMinutes(days[0]!)).toBe(65);
    expect(hoursMinutes(65)).toEqual({ hours: 1, minutes: '05' });
  });
});
