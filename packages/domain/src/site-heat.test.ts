import { describe, expect, it } from 'vitest';
import { ALERT_POLICY_DEFAULTS } from './alert-policy.js';
import { heatRuleDay } from './heat-rule.js';
import {
  initialSiteHeatState,
  readSiteHeatState,
  type SiteHeatChange,
  type SiteHeatPolicy,
  type SiteHeatState,
  siteHeatNoticeOf,
  siteHeatStep,
} from './site-heat.js';

const TZ = 'Asia/Tokyo';
const policy: SiteHeatPolicy = {
  siteHeatEnterMinutes: ALERT_POLICY_DEFAULTS.siteHeatEnterMinutes,
  siteHeatLeaveMinutes: ALERT_POLICY_DEFAULTS.siteHeatLeaveMinutes,
  siteHeatLeaveMargin: ALERT_POLICY_DEFAULTS.siteHeatLeaveMargin,
};
// 2026-08-03 09:00 JST.
const start = Date.parse('2026-08-03T00:00:00Z');
const minute = (m: number) => new Date(start + m * 60_000);

type Reading = [minute: number, wbgt: number | null, air?: number | null];

/**
 * Feeds readings (minutes after 09:00 local) through the step function, the state going through
 * JSON between every two steps as it does through the database.
 */
function run(readings: Reading[], p = policy, from: SiteHeatState = initialSiteHeatState()) {
  let state = from;
  const changes: (SiteHeatChange & { minute: number })[] = [];
  const heatRuleStarts: number[] = [];
  for (const [m, wbgt, air] of readings) {
    const stored = JSON.parse(JSON.stringify(state)) as unknown;
    const step = siteHeatStep(
      readSiteHeatState(stored),
      { at: minute(m), wbgt, airTemperature: air ?? null },
      p,
      TZ,
    );
    state = step.state;
    if (step.change) changes.push({ ...step.change, minute: m });
    if (step.heatRuleStarted) heatRuleStarts.push(m);
  }
  return { state, changes, heatRuleStarts };
}

/** One reading a minute over [from, to) with the same values. */
const flat = (from: number, to: number, wbgt: number | null, air?: number | null): Reading[] =>
  Array.from({ length: to - from }, (_, i) => [from + i, wbgt, air]);

const levels = (changes: { from: string; to: string; minute: number }[]) =>
  changes.map((c) => `${c.from}->${c.to}@${c.minute}`);

describe('siteHeatStep: entering a level', () => {
  it('enters CAUTION only after WBGT has been at or above 25 for the enter window (10 min)', () => {
    const { changes, state } = run([...flat(0, 5, 24), ...flat(5, 30, 26)]);
    // The run begins at minute 5; the window is complete at minute 15.
    expect(levels(changes)).toEqual(['NORMAL->CAUTION@15']);
    expect(changes[0]!.cause).toMatchObject({ rule: 'enter', windowMinutes: 10, heldMinutes: 10 });
    expect(state).toMatchObject({ level: 'CAUTION', since: minute(15).toISOString(), wbgt: 26 });
  });

  it('a short spike does not change the level', () => {
    const { changes } = run([...flat(0, 5, 24), ...flat(5, 12, 32), ...flat(12, 40, 24)]);
    expect(changes).toEqual([]);
  });

  it('a dip below the bound restarts the enter window', () => {
    const { changes } = run([...flat(0, 8, 26), [8, 24.9], ...flat(9, 30, 26)]);
    expect(levels(changes)).toEqual(['NORMAL->CAUTION@19']);
  });

  it('a jump of several levels is one change', () => {
    const { changes } = run([...flat(0, 5, 22), ...flat(5, 30, 32)]);
    expect(levels(changes)).toEqual(['NORMAL->DANGER@15']);
    expect(changes[0]!.wbgt).toBe(32);
  });

  it('an enter window of 0 enters on the first reading', () => {
    const { changes } = run([[0, 29]], { ...policy, siteHeatEnterMinutes: 0 });
    expect(levels(changes)).toEqual(['NORMAL->SEVERE@0']);
  });
});

describe('siteHeatStep: leaving with hysteresis', () => {
  it('leaves only after WBGT has been at least 1 C below the bound for 15 minutes', () => {
    const hot = flat(0, 20, 29); // SEVERE from minute 10
    // 27.5 is below 28 but not 1 C below: the site stays SEVERE.
    const { changes } = run([...hot, ...flat(20, 60, 27.5)]);
    expect(levels(changes)).toEqual(['NORMAL->SEVERE@10']);

    // 26.9 is more than 1 C below 28 (and not 1 C below 25): SEVERE -> CAUTION after 15 minutes.
    const cooled = run([...hot, ...flat(20, 60, 26.9)]);
    expect(levels(cooled.changes)).toEqual(['NORMAL->SEVERE@10', 'SEVERE->CAUTION@35']);
    expect(cooled.changes[1]!.cause).toMatchObject({
      rule: 'leave',
      windowMinutes: 15,
      heldMinutes: 15,
      margin: 1,
    });
  });

  it('a fall of several levels is one change', () => {
    const { changes, state } = run([...flat(0, 20, 32), ...flat(20, 60, 20)]);
    expect(levels(changes)).toEqual(['NORMAL->DANGER@10', 'DANGER->NORMAL@35']);
    expect(state.level).toBe('NORMAL');
  });

  it('the margin and leave window follow the policy', () => {
    const { changes } = run([...flat(0, 20, 29), ...flat(20, 40, 27.5)], {
      ...policy,
      siteHeatLeaveMargin: 0,
      siteHeatLeaveMinutes: 5,
    });
    expect(levels(changes)).toEqual(['NORMAL->SEVERE@10', 'SEVERE->CAUTION@25']);
  });

  it('WBGT wandering around 31 is one change, not one per crossing', () => {
    const wander: Reading[] = Array.from({ length: 120 }, (_, i) => [
      20 + i,
      i % 4 < 2 ? 31.4 : 30.6,
    ]);
    const { changes, state } = run([...flat(0, 20, 32), ...wander]);
    expect(levels(changes)).toEqual(['NORMAL->DANGER@10']);
    expect(state.level).toBe('DANGER');
  });

  it('WBGT wandering around 31 from below never enters DANGER while each run is shorter than the window', () => {
    const wander: Reading[] = Array.from({ length: 120 }, (_, i) => [
      20 + i,
      i % 10 < 5 ? 31.4 : 30.6,
    ]);
    const { changes } = run([...flat(0, 20, 29.5), ...wander]);
    expect(levels(changes)).toEqual(['NORMAL->SEVERE@10']);
  });
});

describe('siteHeatStep: gaps and order', () => {
  it('a gap longer than 30 minutes breaks the enter run', () => {
    // 8 minutes hot, 40 minutes silence, then hot again: the window restarts at minute 48.
    const { changes } = run([...flat(0, 8, 26), ...flat(48, 70, 26)]);
    expect(levels(changes)).toEqual(['NORMAL->CAUTION@58']);
  });

  it('readings every 30 minutes still form a run', () => {
    const { changes } = run([
      [0, 26],
      [30, 26],
    ]);
    expect(levels(changes)).toEqual(['NORMAL->CAUTION@30']);
  });

  it('a reading at or before the last one is ignored', () => {
    const first = run(flat(0, 5, 26));
    const again = run([[3, 35]], policy, first.state);
    expect(again.state).toEqual(first.state);
    expect(again.changes).toEqual([]);
  });

  it('a reading without WBGT keeps the level and the runs', () => {
    const { changes } = run([...flat(0, 5, 26), [5, null, 25], ...flat(6, 12, 26)]);
    expect(levels(changes)).toEqual(['NORMAL->CAUTION@10']);
  });
});

describe('siteHeatStep: the MHLW heat rule', () => {
  it('applies after an hour at a stretch of WBGT 28 or more', () => {
    const { state, heatRuleStarts, changes } = run(flat(0, 70, 28.5));
    // Each reading covers the minute until the next: 60 hot minutes are complete at minute 60.
    expect(heatRuleStarts).toEqual([60]);
    expect(state.heatRule).toMatchObject({ applies: true, longestStretchMinutes: 69 });
    expect(changes[0]!.cause.heatRule.appliesToday).toBe(false);
  });

  it('air temperature of 31 C counts as hot work too', () => {
    const { heatRuleStarts } = run(flat(0, 70, 24, 31.5));
    expect(heatRuleStarts).toEqual([60]);
  });

  it('applies after more than four hours in the day without an hour at a stretch', () => {
    // 50 hot minutes, 10 cool, six times over: 300 hot minutes, never 60 at a stretch.
    const day: Reading[] = [];
    for (let k = 0; k < 6; k++)
      day.push(...flat(k * 60, k * 60 + 50, 29), ...flat(k * 60 + 50, k * 60 + 60, 26));
    const { state, heatRuleStarts } = run(day);
    expect(state.heatRule.longestStretchMinutes).toBe(50);
    expect(state.heatRule.hotMinutes).toBe(300);
    // Four blocks make 200 hot minutes by minute 240; the 241st hot minute is minute 280, covered
    // when the reading after it arrives.
    expect(heatRuleStarts).toEqual([281]);
    // The same figures as the monthly report's heatRuleDay over the same readings.
    const report = heatRuleDay(
      day.map(([m, wbgt]) => ({ at: minute(m), wbgt, temperature: null })),
      minute(-9 * 60),
      minute(15 * 60),
    );
    expect(report).toMatchObject({ hotMinutes: 300, longestStretchMinutes: 50 });
  });

  it('a change after the rule applied says so in its cause', () => {
    const { changes } = run([...flat(0, 70, 29), ...flat(70, 90, 32)]);
    expect(levels(changes)).toEqual(['NORMAL->SEVERE@10', 'SEVERE->DANGER@80']);
    expect(changes[1]!.cause.heatRule).toMatchObject({ appliesToday: true });
  });

  it('a new local day starts from zero', () => {
    // 22:00-24:00 local hot, then the next day's first reading: the new day has not applied yet.
    const late = (m: number) => 13 * 60 + m; // 09:00 + 13 h = 22:00 JST
    const { state } = run([...flat(late(0), late(120), 29), [late(121), 29]]);
    expect(state.heatRule).toMatchObject({ day: '2026-08-04', applies: false, hotMinutes: 1 });
  });
});

describe('site heat state', () => {
  it('is plain JSON of constant size', () => {
    const short = run(flat(0, 30, 29)).state;
    const long = run(flat(0, 600, 29)).state;
    expect(JSON.parse(JSON.stringify(long))).toEqual(long);
    expect(Math.abs(JSON.stringify(long).length - JSON.stringify(short).length)).toBeLessThan(10);
  });

  it('an unreadable stored state starts afresh at NORMAL', () => {
    expect(readSiteHeatState(null)).toEqual(initialSiteHeatState());
    expect(readSiteHeatState({ level: 'HOT' })).toEqual(initialSiteHeatState());
  });
});

describe('siteHeatNoticeOf: which changes are sent', () => {
  it.each([
    ['NORMAL', 'CAUTION', { kind: 'rise', callAllowed: false }],
    ['CAUTION', 'SEVERE', { kind: 'rise', callAllowed: false }],
    ['NORMAL', 'DANGER', { kind: 'rise', callAllowed: true }],
    ['SEVERE', 'DANGER', { kind: 'rise', callAllowed: true }],
    ['DANGER', 'SEVERE', null],
    ['DANGER', 'CAUTION', { kind: 'clear', callAllowed: false }],
    ['SEVERE', 'NORMAL', { kind: 'clear', callAllowed: false }],
    ['CAUTION', 'NORMAL', null],
  ] as const)('%s -> %s', (from, to, expected) => {
    expect(siteHeatNoticeOf(from, to)).toEqual(expected);
  });
});
