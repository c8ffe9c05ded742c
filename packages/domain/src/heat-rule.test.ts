import { describe, expect, it } from 'vitest';
import {
  type EnvironmentSample,
  heatRuleDay,
  isHotSample,
  siteApplicableHours,
} from './heat-rule.js';

// A scripted day in Tokyo: 2026-08-03 00:00 JST is 2026-08-02 15:00 UTC.
const dayStart = new Date('2026-08-02T15:00:00Z');
const dayEnd = new Date('2026-08-03T15:00:00Z');
/** A reading at hh:mm local time of the day. */
const at = (
  hhmm: string,
  wbgt: number | null,
  temperature: number | null = null,
): EnvironmentSample => {
  const [h, m] = hhmm.split(':').map(Number);
  return { at: new Date(dayStart.getTime() + (h! * 60 + m!) * 60_000), wbgt, temperature };
};
/** Readings every `step` minutes from `from` (inclusive) to `to` (exclusive), all the same. */
const every = (
  from: string,
  to: string,
  step: number,
  wbgt: number | null,
  temperature: number | null = null,
) => {
  const out: EnvironmentSample[] = [];
  const minutes = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
  for (let m = minutes(from); m < minutes(to); m += step) {
    out.push(
      at(
        `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
        wbgt,
        temperature,
      ),
    );
  }
  return out;
};

describe('isHotSample', () => {
  it('WBGT 28 or air temperature 31 and above', () => {
    expect(isHotSample({ wbgt: 28, temperature: null })).toBe(true);
    expect(isHotSample({ wbgt: 27.9, temperature: 30.9 })).toBe(false);
    expect(isHotSample({ wbgt: 25, temperature: 31 })).toBe(true);
    expect(isHotSample({ wbgt: null, temperature: null })).toBe(false);
  });
});

describe('heatRuleDay on scripted days', () => {
  it('a cool day has no applicable hours', () => {
    const d = heatRuleDay(every('08:00', '18:00', 10, 25, 29), dayStart, dayEnd);
    expect(d).toMatchObject({
      hotMinutes: 0,
      longestStretchMinutes: 0,
      applicable: false,
      applicableHours: [],
    });
    expect(d.hotMinutesByHour).toHaveLength(24);
  });

  it('an hour at a stretch (10:00-11:00 at WBGT 28.5) makes the day applicable: hour 10', () => {
    const d = heatRuleDay(
      [
        ...every('08:00', '10:00', 10, 26),
        ...every('10:00', '11:00', 10, 28.5),
        ...every('11:00', '18:00', 10, 26),
      ],
      dayStart,
      dayEnd,
    );
    expect(d).toMatchObject({
      hotMinutes: 60,
      longestStretchMinutes: 60,
      applicable: true,
      applicableHours: [10],
    });
  });

  it('50 minutes at a stretch, three times (150 min in all) is not applicable', () => {
    const samples = [
      ...every('09:00', '09:50', 10, 29),
      ...every('09:50', '11:00', 10, 26),
      ...every('11:00', '11:50', 10, 29),
      ...every('11:50', '13:00', 10, 26),
      ...every('13:00', '13:50', 10, 29),
      ...every('13:50', '18:00', 10, 26),
    ];
    const d = heatRuleDay(samples, dayStart, dayEnd);
    expect(d).toMatchObject({
      hotMinutes: 150,
      longestStretchMinutes: 50,
      applicable: false,
      applicableHours: [],
    });
    expect(d.hotMinutesByHour[9]).toBe(50);
  });

  it('more than four hours a day in 50-minute bouts is applicable; every hot hour is marked', () => {
    const samples: EnvironmentSample[] = [];
    for (const h of [8, 9, 10, 11, 12, 13]) {
      const hh = String(h).padStart(2, '0');
      samples.push(...every(`${hh}:00`, `${hh}:50`, 10, null, 32), at(`${hh}:50`, null, 30));
    }
    samples.push(at('14:00', null, 30));
    const d = heatRuleDay(samples, dayStart, dayEnd);
    expect(d).toMatchObject({
      hotMinutes: 300,
      longestStretchMinutes: 50,
      applicable: true,
      applicableHours: [8, 9, 10, 11, 12, 13],
    });
  });

  it('exactly four hours in short bouts is not more than four hours', () => {
    const samples: EnvironmentSample[] = [];
    for (const h of [8, 9, 10, 11, 12, 13]) {
      const hh = String(h).padStart(2, '0');
      samples.push(...every(`${hh}:00`, `${hh}:40`, 10, 30), at(`${hh}:40`, 20));
    }
    const d = heatRuleDay(samples, dayStart, dayEnd);
    expect(d).toMatchObject({ hotMinutes: 240, applicable: false });
  });

  it('a reading covers at most 30 minutes: a silent gateway is not hot', () => {
    // One hot reading at 12:00 and nothing else: 30 minutes, not an hour.
    expect(heatRuleDay([at('12:00', 30)], dayStart, dayEnd)).toMatchObject({
      hotMinutes: 30,
      applicable: false,
    });
    // Hot readings every 40 minutes leave 10-minute gaps: no stretch of an hour.
    const d = heatRuleDay(every('10:00', '14:00', 40, 30), dayStart, dayEnd);
    expect(d).toMatchObject({ hotMinutes: 180, longestStretchMinutes: 30, applicable: false });
  });

  it('a hot reading just before midnight covers the first minutes of the day; the day ends at dayEnd', () => {
    const before = { at: new Date(dayStart.getTime() - 10 * 60_000), wbgt: 30, temperature: null };
    const d = heatRuleDay([before, at('23:50', 30)], dayStart, dayEnd);
    expect(d.hotMinutesByHour[0]).toBe(20);
    expect(d.hotMinutesByHour[23]).toBe(10);
    expect(d.hotMinutes).toBe(30);
  });

  it('readings out of order give the same answer', () => {
    const samples = every('10:00', '12:00', 5, 29);
    expect(heatRuleDay([...samples].reverse(), dayStart, dayEnd)).toEqual(
      heatRuleDay(samples, dayStart, dayEnd),
    );
  });

  it('a site unites its gateways: an hour marked by any of them', () => {
    const a = heatRuleDay(every('10:00', '11:30', 10, 29), dayStart, dayEnd);
    const b = heatRuleDay(every('11:00', '13:00', 10, 29), dayStart, dayEnd);
    const c = heatRuleDay(every('15:00', '15:30', 10, 29), dayStart, dayEnd);
    // The last reading of each run covers 30 minutes more: a 10:00-11:50, b 11:00-13:20, c 15:00-15:50 (50 min, not applicable).
    expect(siteApplicableHours([a, b, c])).toEqual([10, 11, 12, 13]);
  });
});
