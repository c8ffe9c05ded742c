import { estimateCoreTemperature, physiologicalStrainIndex } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { run, SATURDAY_NIGHT, scenario, wearer } from './testing/scenario.js';

const at = (minutes: number) => new Date(SATURDAY_NIGHT.getTime() + minutes * 60_000);

describe('HEATSTROKE', () => {
  it('WBGT >= 28 with HR above 180 - age sustained over the window', () => {
    const r = run(
      wearer(),
      scenario(SATURDAY_NIGHT).every(1, 'min', { wbgt: 29, heartRate: 145 }).for(9),
    );
    const open = r.opens('HEATSTROKE');
    expect(open).toHaveLength(1);
    expect(open[0]!.at).toEqual(at(8));
    expect(open[0]!.cause).toMatchObject({
      rule: 'wbgt-caution-with-heart-rate-sustained',
      values: {
        wbgt: 29,
        wbgtThreshold: 28,
        heartRate: 145,
        heartRateLimit: 140,
        readings: 9,
        minutes: 8,
      },
      windowStart: SATURDAY_NIGHT.toISOString(),
      windowEnd: at(8).toISOString(),
    });
  });

  it.each([
    ['HR at the limit', { wbgt: 29, heartRate: 140 }],
    ['WBGT below caution', { wbgt: 27.9, heartRate: 170 }],
  ])('stays quiet with %s', (_label, reading) => {
    const r = run(wearer(), scenario(SATURDAY_NIGHT).every(1, 'min', reading).for(30));
    expect(r.opens('HEATSTROKE')).toHaveLength(0);
  });

  it('the HR limit follows age: 180 - 25 = 155 for a 25-year-old', () => {
    const r = run(
      wearer({ age: 25 }),
      scenario(SATURDAY_NIGHT).every(1, 'min', { wbgt: 29, heartRate: 150 }).for(20),
    );
    expect(r.opens('HEATSTROKE')).toHaveLength(0);
  });

  it('recovers 10 minutes after the heart rate dropped under the limit while WBGT stays at 29', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', { wbgt: 29, heartRate: 145 }).for(9);
    const r = run(wearer(), s.every(1, 'min', { wbgt: 29, heartRate: 100 }).for(15));
    expect(r.closes('HEATSTROKE')).toEqual([
      expect.objectContaining({ reason: 'recovered', at: at(19) }),
    ]);
  });

  it('WBGT alone never opens it: a hot site is the site heat level, not a personal alert', () => {
    const r = run(
      wearer({ settings: { thresholds: { wbgtHigh: 31 } } }),
      scenario(SATURDAY_NIGHT).every(1, 'min', { wbgt: 34, heartRate: 90 }).for(120),
    );
    expect(r.opens('HEATSTROKE')).toHaveLength(0);
  });

  it('a reading without WBGT: a calm heart rate is clear, a high one says nothing', () => {
    const hot = scenario(SATURDAY_NIGHT).every(1, 'min', { wbgt: 29, heartRate: 145 }).for(9);
    const calm = run(wearer(), hot.every(1, 'min', { heartRate: 90 }).for(11));
    expect(calm.closes('HEATSTROKE')).toEqual([expect.objectContaining({ at: at(19) })]);
    const strained = scenario(SATURDAY_NIGHT).every(1, 'min', { wbgt: 29, heartRate: 145 }).for(9);
    const r = run(wearer(), strained.every(1, 'min', { heartRate: 150 }).for(30));
    expect(r.opens('HEATSTROKE')).toHaveLength(1);
    expect(r.closes('HEATSTROKE')).toHaveLength(0);
  });

  it('follows the wearer threshold wbgtCaution', () => {
    const profile = wearer({ settings: { thresholds: { wbgtCaution: 30 } } });
    const s = (wbgt: number) =>
      scenario(SATURDAY_NIGHT).every(1, 'min', { wbgt, heartRate: 150 }).for(20);
    expect(run(profile, s(29.9)).opens('HEATSTROKE')).toHaveLength(0);
    expect(run(profile, s(30)).opens('HEATSTROKE')).toHaveLength(1);
  });
});

describe('ECTemp through the engine', () => {
  it('worked trace: HR 100, 110, 120 one minute apart', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 100 }).for(1);
    s.reading({ heartRate: 110 }).wait(1).reading({ heartRate: 120 });
    const cts: number[] = [];
    let state = run(wearer(), []).state;
    for (const input of s.inputs) {
      state = run(wearer(), [input], { state }).state;
      cts.push(state.core!.ct);
    }
    // Values from the published equations, computed by hand in heat-strain.test.ts.
    expect(cts[0]).toBeCloseTo(37.1010362, 7);
    expect(cts[1]).toBeCloseTo(37.1043136, 7);
    expect(cts[2]).toBeCloseTo(37.1109877, 7);
  });

  it('duty cycle 5: one step a minute, predicting between readings', () => {
    const s = scenario(SATURDAY_NIGHT).every(5, 'min', { heartRate: 160 }).for(60);
    const r = run(wearer({ dutyCycleMinutes: 5 }), s);
    // Minute 0..55: a heart rate every fifth minute, predict-only in between.
    const series = Array.from({ length: 56 }, (_, m) => (m % 5 === 0 ? 160 : null));
    const expected = estimateCoreTemperature(series).at(-1)!;
    expect(r.state.core!.ct).toBeCloseTo(expected.ct, 10);
    expect(r.state.core!.v).toBeCloseTo(expected.v, 12);
  });

  it('ADVANCED_HEATSTROKE_RISK fires when the estimate reaches 38.0, with the estimate as cause', () => {
    const r = run(wearer(), scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 170 }).for(40));
    const open = r.opens('ADVANCED_HEATSTROKE_RISK')[0]!;
    const minute = (open.at.getTime() - SATURDAY_NIGHT.getTime()) / 60_000;
    const series = estimateCoreTemperature(Array<number>(minute + 1).fill(170));
    expect(series.at(-1)!.ct).toBeGreaterThanOrEqual(38);
    expect(series.at(-2)!.ct).toBeLessThan(38);
    expect(open.cause.values.coreTemperature).toBeCloseTo(series.at(-1)!.ct, 3);
    expect(open.cause.windowStart).toBe(SATURDAY_NIGHT.toISOString());
  });

  it('ADVANCED_HEATSTROKE by ECTemp >= 38.5 when PSI cannot reach its threshold', () => {
    const profile = wearer({ settings: { thresholds: { psiCritical: 10 } } });
    const r = run(profile, scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 170 }).for(60));
    const open = r.opens('ADVANCED_HEATSTROKE')[0]!;
    expect(open.cause.rule).toBe('ectemp');
    expect(open.cause.values.coreTemperature).toBeGreaterThanOrEqual(38.5);
    expect(open.cause.values.threshold).toBe(38.5);
  });

  it('PSI uses the lowest worn heart rate as HR0 and 37.1 as CT0', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', { heartRate: 60 })
      .for(10)
      .every(1, 'min', { heartRate: 175 })
      .for(50);
    const r = run(wearer(), s);
    const open = r.opens('ADVANCED_HEATSTROKE')[0]!;
    expect(open.cause.rule).toBe('psi');
    const { coreTemperature, heartRate, baselineHeartRate, baselineCoreTemperature, psi } =
      open.cause.values;
    expect(baselineHeartRate).toBe(60);
    expect(baselineCoreTemperature).toBe(37.1);
    expect(psi).toBeGreaterThanOrEqual(7);
    expect(psi).toBeCloseTo(
      physiologicalStrainIndex(Number(coreTemperature), Number(heartRate), 37.1, 60),
      2,
    );
  });

  it('a second reading in the same minute does not step the filter again', () => {
    const once = run(wearer(), scenario(SATURDAY_NIGHT).reading({ heartRate: 150 }));
    const twice = run(
      wearer(),
      scenario(SATURDAY_NIGHT)
        .reading({ heartRate: 150 })
        .wait(30, 's')
        .reading({ heartRate: 150 }),
    );
    expect(twice.state.core).toEqual(once.state.core);
  });

  it('readings off the wrist do not feed it', () => {
    const s = scenario(SATURDAY_NIGHT).reading({ heartRate: 100 }).wait(1);
    const before = run(wearer(), s).state.core;
    const after = run(wearer(), s.every(1, 'min', { heartRate: 190, worn: false }).for(30)).state
      .core;
    expect(after).toEqual(before);
  });

  it('restarts from 37.1 after two hours without a worn heart rate', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', { heartRate: 170 })
      .for(30)
      .wait(121)
      .reading({ heartRate: 100 });
    const r = run(wearer(), s);
    expect(r.state.core!.since).toBe(at(151).getTime());
    expect(r.state.core!.ct).toBeCloseTo(37.1010362, 7);
  });
});
