import { describe, expect, it } from 'vitest';
import { ageOn, maxHeartRate } from './heart-rate.js';
import { BUSINESS_SCHEDULE, DEFAULT_SCHEDULE, isWithinSchedule } from './schedules.js';

describe('maxHeartRate', () => {
  it('is 208 - 0.7 x age, within 40..220', () => {
    expect(maxHeartRate(40)).toBe(180);
    expect(maxHeartRate(20)).toBe(194);
    expect(maxHeartRate(-100)).toBe(220);
    expect(maxHeartRate(400)).toBe(40);
  });
  it('counts whole years', () => {
    expect(ageOn('1986-11-22', new Date('2026-11-21T00:00:00Z'))).toBe(39);
    expect(ageOn('1986-11-21', new Date('2026-11-21T00:00:00Z'))).toBe(40);
  });
});

describe('schedules', () => {
  // 2026-11-21 is a Saturday; 10:00 in Tokyo is 01:00 UTC.
  const saturdayTen = new Date('2026-11-21T01:00:00Z');
  const mondayTen = new Date('2026-11-23T01:00:00Z');
  const mondayEight = new Date('2026-11-22T23:00:00Z');
  it('default covers every day', () => {
    expect(isWithinSchedule(DEFAULT_SCHEDULE, saturdayTen)).toBe(true);
  });
  it('business preset: weekdays 09:00-18:00, weekend off', () => {
    expect(isWithinSchedule(BUSINESS_SCHEDULE, saturdayTen)).toBe(false);
    expect(isWithinSchedule(BUSINESS_SCHEDULE, mondayTen)).toBe(true);
    expect(isWithinSchedule(BUSINESS_SCHEDULE, mondayEight)).toBe(false);
  });
});
