import { describe, expect, it } from 'vitest';
import { run, SATURDAY_NIGHT, scenario, wearer } from './testing/scenario.js';

const at = (minutes: number) => new Date(SATURDAY_NIGHT.getTime() + minutes * 60_000);

describe('adaptive PSI through the engine (the default heat-strain model)', () => {
  it('worked trace by hand: HR 100, 110, 120 with skin 33.0, 35.0, 36.6 one minute apart', () => {
    // ECTemp (Buller 2013, hand computation in packages/domain/src/heat-strain.test.ts):
    //   CT = 37.1010362, 37.1043136, 37.1109877.  HR0 = min(lowest HR 100, cap 90) = 90, CT0 = 37.1.
    // Minute 0: gradient 37.1010362 - 33.0 = 4.1010362 >= 4, so CT_crit = 39.5
    //   aPSI = 5 x 0.0010362/2.4 + 5 x 10/90 = 0.0021588 + 0.5555556 = 0.5577144
    // Minute 1: gradient 2.1043136, CT_crit = 38 + 1.5 x 2.1043136/4 = 38.7891176
    //   aPSI = 5 x 0.0043136/1.6891176 + 5 x 20/90 = 0.0127688 + 1.1111111 = 1.1238799
    // Minute 2: gradient 0.5109877, CT_crit = 38 + 1.5 x 0.5109877/4 = 38.1916204
    //   aPSI = 5 x 0.0109877/1.0916204 + 5 x 30/90 = 0.0503273 + 1.6666667 = 1.7169940
    const profile = wearer({ settings: { thresholds: { apsiRisk: 1.7, apsiCritical: 1.8 } } });
    const s = scenario(SATURDAY_NIGHT).reading({ heartRate: 100, skinTemperature: 33 }).wait(1);
    s.reading({ heartRate: 110, skinTemperature: 35 })
      .wait(1)
      .reading({ heartRate: 120, skinTemperature: 36.6 });
    const r = run(profile, s);
    const [open] = r.opens('ADVANCED_HEATSTROKE_RISK');
    expect(open!.at).toEqual(at(2));
    expect(open!.cause.rule).toBe('apsi');
    expect(open!.cause.values).toMatchObject({
      skinTemperature: 36.6,
      coreTemperature: 37.111,
      gradient: 0.511,
      criticalCoreTemperature: 38.192,
      apsi: 1.72,
      heartRate: 120,
      baselineCoreTemperature: 37.1,
      baselineHeartRate: 90,
      threshold: 1.7,
    });
    expect(r.opens('ADVANCED_HEATSTROKE')).toHaveLength(0);
  });

  it('hot skin raises the risk alert where cool skin does not (HR 150 for an hour)', () => {
    const hot = run(
      wearer(),
      scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 150, skinTemperature: 36.5 }).for(60),
    );
    const cool = run(
      wearer(),
      scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 150, skinTemperature: 33 }).for(60),
    );
    const [open] = hot.opens('ADVANCED_HEATSTROKE_RISK');
    expect(open!.at).toEqual(at(39));
    expect(open!.cause.values.apsi).toBeGreaterThanOrEqual(7);
    expect(open!.cause.values.threshold).toBe(7);
    expect(cool.opens('ADVANCED_HEATSTROKE_RISK')).toHaveLength(0);
    // ECTemp alone (the older model) would have said "risk" on the cool wearer too.
    const old = run(
      wearer({ settings: { heatStrainModel: 'ECTEMP' } }),
      scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 150, skinTemperature: 33 }).for(60),
    );
    expect(old.opens('ADVANCED_HEATSTROKE_RISK')[0]!.cause.rule).toBe('ectemp');
  });

  it('ADVANCED_HEATSTROKE at aPSI >= 9; both recover 10 minutes after the heart rate fell', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', { heartRate: 160, skinTemperature: 36.5 })
      .for(80);
    const r = run(wearer(), s.every(1, 'min', { heartRate: 85, skinTemperature: 34 }).for(15));
    const [critical] = r.opens('ADVANCED_HEATSTROKE');
    expect(critical!.at).toEqual(at(74));
    expect(critical!.cause).toMatchObject({
      rule: 'apsi',
      values: { threshold: 9, skinTemperature: 36.5 },
    });
    expect(r.closes('ADVANCED_HEATSTROKE')).toEqual([
      expect.objectContaining({ reason: 'recovered', at: at(90) }),
    ]);
    expect(r.closes('ADVANCED_HEATSTROKE_RISK')).toEqual([
      expect.objectContaining({ reason: 'recovered', at: at(90) }),
    ]);
  });

  it('without a recent skin temperature it judges on ECTemp and says so in the cause', () => {
    const s = scenario(SATURDAY_NIGHT).reading({ heartRate: 170, skinTemperature: 34 }).wait(1);
    const r = run(
      wearer({ settings: { thresholds: { coreTempRisk: 37.5 } } }),
      s.every(1, 'min', { heartRate: 170 }).for(60),
    );
    const [open] = r.opens('ADVANCED_HEATSTROKE_RISK');
    expect(open!.cause.rule).toBe('ectemp');
    expect(open!.cause.values.skinTemperature).toBeNull();
  });

  it('a skin temperature read off the wrist is not used', () => {
    const s = scenario(SATURDAY_NIGHT).reading({ heartRate: 150, skinTemperature: 33 }).wait(1);
    s.reading({ skinTemperature: 38, worn: false }).wait(1).reading({ worn: true, heartRate: 150 });
    expect(run(wearer(), s).state.core!.skinTemperature).toBe(33);
  });

  it('the state keeps the skin temperature across a restart', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', { heartRate: 150, skinTemperature: 36.5 })
      .for(60);
    const straight = run(wearer(), s);
    const restarted = run(wearer(), s, { restartBefore: 'all' });
    expect(restarted.effects).toEqual(straight.effects);
  });
});
