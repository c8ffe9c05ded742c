import type { HistoryPoint } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { bucketMinutesOf, monthOf, recordHistoryQuery } from './api/records-api';
import {
  hoursAndMinutes,
  hypnograms,
  rangeOf,
  sleepNights,
  stepsBy,
  stressIndex,
  stressMinutes,
} from './record-math';

// Local times: the test runs in the machine's zone, and nights are read in the browser's zone too.
const at = (y: number, m: number, d: number, h: number, min = 0) =>
  new Date(y, m - 1, d, h, min).toISOString();
const sleep = (iso: string, sleepStage: number | null): HistoryPoint => ({ at: iso, sleepStage });

describe('hypnograms', () => {
  it('draws each night as stages over time: touching buckets of one stage joined, a gap left open', () => {
    const points = [
      sleep(at(2026, 11, 3, 23, 0), 2),
      sleep(at(2026, 11, 3, 23, 5), 2),
      sleep(at(2026, 11, 3, 23, 10), 1),
      // No data 23:15-23:30: no span there.
      sleep(at(2026, 11, 3, 23, 30), 1),
      sleep(at(2026, 11, 4, 0, 0), 4),
      sleep(at(2026, 11, 4, 0, 5), null),
    ];
    const [night] = hypnograms(points, 5);
    const t = (iso: string) => Date.parse(iso);
    expect(night?.night).toBe('2026-11-03');
    expect(night?.spans).toEqual([
      { stage: 'LIGHT_SLEEP', from: t(at(2026, 11, 3, 23, 0)), to: t(at(2026, 11, 3, 23, 10)) },
      { stage: 'DEEP_SLEEP', from: t(at(2026, 11, 3, 23, 10)), to: t(at(2026, 11, 3, 23, 15)) },
      { stage: 'DEEP_SLEEP', from: t(at(2026, 11, 3, 23, 30)), to: t(at(2026, 11, 3, 23, 35)) },
      { stage: 'AWAKE', from: t(at(2026, 11, 4, 0, 0)), to: t(at(2026, 11, 4, 0, 5)) },
    ]);
    expect(night?.start).toBe(t(at(2026, 11, 3, 23, 0)));
    expect(night?.end).toBe(t(at(2026, 11, 4, 0, 5)));
  });

  it('dates nights by the rule of sleepNights, newest first, whatever order the points came in', () => {
    const points = [
      sleep(at(2026, 11, 4, 23, 0), 2),
      sleep(at(2026, 11, 4, 2, 0), 1),
      sleep(at(2026, 11, 3, 22, 30), 2),
    ];
    expect(hypnograms(points, 1).map((n) => n.night)).toEqual(['2026-11-04', '2026-11-03']);
    expect(hypnograms(points, 1).map((n) => n.night)).toEqual(
      sleepNights(points, 1).map((n) => n.night),
    );
  });
});

describe('sleepNights', () => {
  it('counts minutes per stage from the sleep-stage codes DEEP 1, LIGHT 2, RESTLESS 3, AWAKE 4', () => {
    const points = [
      sleep(at(2026, 11, 3, 23, 0), 2),
      sleep(at(2026, 11, 3, 23, 1), 1),
      sleep(at(2026, 11, 3, 23, 2), 1),
      sleep(at(2026, 11, 3, 23, 3), 3),
      sleep(at(2026, 11, 3, 23, 4), 4),
    ];
    expect(sleepNights(points, 1)).toEqual([
      {
        night: '2026-11-03',
        minutes: { DEEP_SLEEP: 2, LIGHT_SLEEP: 1, RESTLESS_SLEEP: 1, AWAKE: 1 },
        asleep: 4,
      },
    ]);
  });

  it('keeps a night across midnight together and splits separate nights, newest first', () => {
    const points = [
      sleep(at(2026, 11, 3, 22, 30), 2),
      sleep(at(2026, 11, 4, 2, 0), 1),
      sleep(at(2026, 11, 4, 6, 0), 4),
      sleep(at(2026, 11, 4, 23, 0), 2),
      sleep(at(2026, 11, 5, 11, 59), 2),
    ];
    const nights = sleepNights(points, 5);
    expect(nights.map((n) => n.night)).toEqual(['2026-11-04', '2026-11-03']);
    expect(nights[1]?.minutes).toEqual({
      DEEP_SLEEP: 5,
      LIGHT_SLEEP: 5,
      RESTLESS_SLEEP: 0,
      AWAKE: 5,
    });
    expect(nights[1]?.asleep).toBe(10);
    expect(nights[0]?.minutes.LIGHT_SLEEP).toBe(10);
  });

  it('weights each point by the bucket size and skips points without a stage or with an unknown code', () => {
    const points = [
      sleep(at(2026, 11, 3, 23), 1),
      sleep(at(2026, 11, 3, 23, 30), null),
      sleep(at(2026, 11, 4, 0), 9),
      { at: at(2026, 11, 4, 1) },
    ];
    expect(sleepNights(points, 30)).toEqual([
      {
        night: '2026-11-03',
        minutes: { DEEP_SLEEP: 30, LIGHT_SLEEP: 0, RESTLESS_SLEEP: 0, AWAKE: 0 },
        asleep: 30,
      },
    ]);
    expect(sleepNights([], 1)).toEqual([]);
  });
});

describe('stress and ranges', () => {
  it('sums minutes per stress level and maps levels to 0..4', () => {
    const points: HistoryPoint[] = [
      { at: at(2026, 11, 3, 9), stressLevel: 'LOW' },
      { at: at(2026, 11, 3, 9, 5), stressLevel: 'LOW' },
      { at: at(2026, 11, 3, 9, 10), stressLevel: 'OVERLOAD' },
      { at: at(2026, 11, 3, 9, 15), stressLevel: null },
    ];
    expect(stressMinutes(points, 5)).toEqual({ NONE: 0, LOW: 10, MEDIUM: 0, HIGH: 0, OVERLOAD: 5 });
    expect([
      stressIndex('NONE'),
      stressIndex('HIGH'),
      stressIndex('OVERLOAD'),
      stressIndex(null),
    ]).toEqual([0, 3, 4, null]);
  });

  it('min / avg / max over present values, null when none', () => {
    expect(rangeOf([60, null, 80, undefined, 70])).toEqual({ min: 60, avg: 70, max: 80 });
    expect(rangeOf([null, undefined])).toBeNull();
    expect(hoursAndMinutes(425)).toEqual({ hours: 7, minutes: 5 });
  });
});

describe('record periods', () => {
  it('asks the server for buckets of 1, 5 and 30 minutes over a day, a week and 30 days', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    for (const [period, minutes, bucket] of [
      ['day', 1440, 1],
      ['week', 10080, 5],
      ['month', 43200, 30],
    ] as const) {
      const q = recordHistoryQuery('w1', period, now);
      expect(Date.parse(q.to) - Date.parse(q.from)).toBe(minutes * 60_000);
      // The server's bucket is ceil(span / points): it must equal the one the page counts with.
      expect(Math.ceil(minutes / q.points)).toBe(bucket);
      expect(bucketMinutesOf(period)).toBe(bucket);
      expect(q.points).toBeLessThanOrEqual(5000);
      expect(q.metrics.split(',')).toEqual([
        'heartRate',
        'skinTemperature',
        'sleepStage',
        'stressLevel',
        'steps',
      ]);
    }
    expect(monthOf(new Date(2026, 0, 5))).toBe('2026-01');
  });
});

describe("sleepNights dates a night by the day it started in the organisation's zone (docs/sleep-nights.md)", () => {
  it('the same rule as the monthly report, whatever zone the browser is in', () => {
    const points = [
      sleep('2026-12-01T23:00:00+09:00', 1),
      sleep('2026-12-02T01:00:00+09:00', 2),
      sleep('2026-12-02T11:59:00+09:00', 4),
      sleep('2026-12-02T13:00:00+09:00', 2),
    ];
    expect(sleepNights(points, 1, 'Asia/Tokyo').map((n) => [n.night, n.asleep])).toEqual([
      ['2026-12-02', 1],
      ['2026-12-01', 2],
    ]);
  });
});

describe('stepsBy: steps as the day / week / month switch says (issue 36)', () => {
  const points: HistoryPoint[] = [
    { at: '2026-11-30T10:00:00+09:00', steps: 100 },
    { at: '2026-12-01T23:30:00+09:00', steps: 30 },
    { at: '2026-12-02T00:10:00+09:00', steps: 20 },
    { at: '2026-12-02T00:40:00+09:00', steps: 5 },
    { at: '2026-12-02T03:00:00+09:00', steps: null },
  ];
  it('per local date for a week or a month, newest first', () => {
    expect(stepsBy(points, 'week', 'Asia/Tokyo')).toEqual([
      { key: '2026-12-02', steps: 25 },
      { key: '2026-12-01', steps: 30 },
      { key: '2026-11-30', steps: 100 },
    ]);
  });
  it('per hour for a day', () => {
    expect(stepsBy(points.slice(1), 'day', 'Asia/Tokyo')).toEqual([
      { key: '2026-12-02T00', steps: 25 },
      { key: '2026-12-01T23', steps: 30 },
    ]);
  });
});
