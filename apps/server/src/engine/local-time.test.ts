import { isWithinSchedule, WEEKDAYS, type WeeklySchedule } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { isWithinDailyWindow, minuteOfDay } from './local-time.js';

const daily = (startTime: string, endTime: string) =>
  Object.fromEntries(
    WEEKDAYS.map((d) => [d, { enabled: true, startTime, endTime }]),
  ) as WeeklySchedule;

describe('isWithinDailyWindow', () => {
  it('reads the wall clock of the zone', () => {
    expect(minuteOfDay(Date.parse('2026-11-21T14:05:00Z'), 'Asia/Tokyo')).toBe(23 * 60 + 5);
    expect(minuteOfDay(Date.parse('2026-11-21T14:05:00Z'), 'UTC')).toBe(14 * 60 + 5);
  });

  it.each([
    ['22:00', '06:00', 'Asia/Tokyo'],
    ['09:00', '18:00', 'Europe/Paris'],
    ['00:00', '23:59', 'America/New_York'],
  ])(
    'agrees with isWithinSchedule for %s-%s every 7 minutes over two days (%s)',
    (start, end, zone) => {
      const from = Date.parse('2026-11-21T00:00:00Z');
      for (let t = from; t < from + 2 * 86_400_000; t += 7 * 60_000) {
        expect(isWithinDailyWindow(t, zone, start, end)).toBe(
          isWithinSchedule(daily(start, end), new Date(t), zone),
        );
      }
    },
  );
});
