import type { AlertSettingsInput, AlertType } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { initialState, normalizeState, step } from './engine.js';
import { run, SATURDAY_NIGHT, scenario, wearer, type Scenario } from './testing/scenario.js';
import type { EngineEffect, EngineInput } from './types.js';

const MIN = 60_000;
const at = (minutes: number) => new Date(SATURDAY_NIGHT.getTime() + minutes * MIN);

/**
 * One scenario per threshold rule: the condition opens the alert, then wanders around its
 * threshold for about an hour, then stays clear. The same inputs run twice: through an engine
 * without a recovery window or cooldown (one alert per crossing, as before 2026-11-26: that
 * run also tells when the value last crossed back), and through the engine as configured
 * (10-minute window), with the state through JSON before every step as the runner stores it.
 */
function wander(type: AlertType, s: Scenario, settings: AlertSettingsInput = {}) {
  const perCrossing = run(
    wearer({ recoveryMinutes: 0, settings: { ...settings, cooldownMinutes: 0 } }),
    s,
  );
  const lastCrossedBack = perCrossing.closes(type).at(-1)!.at;
  const now = run(wearer({ settings }), s, { restartBefore: 'all' });
  return { crossings: perCrossing.opens(type).length, lastCrossedBack, now };
}

function expectOneAlertClosingTenMinutesAfterTheLastCrossing(
  type: AlertType,
  s: Scenario,
  settings: AlertSettingsInput = {},
) {
  const { crossings, lastCrossedBack, now } = wander(type, s, settings);
  // The scenario really wanders: one alert per crossing without the window.
  expect(crossings).toBeGreaterThanOrEqual(5);
  expect(now.opens(type)).toHaveLength(1);
  expect(now.closes(type)).toEqual([
    {
      kind: 'close',
      alertType: type,
      at: new Date(lastCrossedBack.getTime() + 10 * MIN),
      reason: 'recovered',
    },
  ]);
}

describe('a value wandering around its threshold is one alert (10-minute recovery window)', () => {
  it('HEART_RATE: HR 182 / 178 around an upper bound of 180 for an hour', () => {
    const s = scenario(SATURDAY_NIGHT);
    for (let m = 0; m < 60; m++) s.reading({ heartRate: m % 2 === 0 ? 182 : 178 }).wait(1);
    s.every(1, 'min', { heartRate: 178 }).for(20);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('HEART_RATE', s);
    // The last 182 was at minute 58, the first clear reading after it at 59.
    expect(run(wearer(), s).closes('HEART_RATE')[0]!.at).toEqual(at(69));
  });

  it('HEART_RATE below the lower bound: 38 / 42 around 40', () => {
    const s = scenario(SATURDAY_NIGHT);
    for (let m = 0; m < 60; m++) s.reading({ heartRate: m % 3 === 0 ? 38 : 42 }).wait(1);
    s.every(1, 'min', { heartRate: 42 }).for(20);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('HEART_RATE', s);
  });

  it('HEART_RATE_ANOMALY_SUSTAINED: sustained above 153, then 156 / 150 around it', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 160 }).for(9);
    // Above again for the window, below for two minutes: each return re-opens without the window.
    for (let i = 0; i < 6; i++) {
      s.every(1, 'min', { heartRate: 150 }).for(2).every(1, 'min', { heartRate: 156 }).for(9);
    }
    s.every(1, 'min', { heartRate: 150 }).for(20);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('HEART_RATE_ANOMALY_SUSTAINED', s);
  });

  it('HEART_RATE_ANOMALY_SUSTAINED: a short return above the threshold holds it open', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 160 }).for(9);
    s.every(1, 'min', { heartRate: 150 }).for(8).every(1, 'min', { heartRate: 156 }).for(2);
    s.every(1, 'min', { heartRate: 150 }).for(20);
    const r = run(wearer(), s, { restartBefore: 'all' });
    // Clear from 9, above at 17-18 (not long enough to open, enough to hold), clear from 19.
    expect(r.closes('HEART_RATE_ANOMALY_SUSTAINED')).toEqual([
      expect.objectContaining({ at: at(29) }),
    ]);
  });

  it('HEATSTROKE: strained at a site whose WBGT wanders around 28', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 145, wbgt: 29 }).for(9);
    for (let i = 0; i < 6; i++) {
      s.every(1, 'min', { heartRate: 145, wbgt: 27.5 })
        .for(2)
        .every(1, 'min', { heartRate: 145, wbgt: 28.5 })
        .for(9);
    }
    s.every(1, 'min', { heartRate: 145, wbgt: 27.5 }).for(20);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('HEATSTROKE', s);
  });

  it('HEATSTROKE: WBGT 29 with the heart rate wandering around 180 - age (140)', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 145, wbgt: 29 }).for(9);
    for (let i = 0; i < 6; i++) {
      s.every(1, 'min', { heartRate: 138, wbgt: 29 })
        .for(3)
        .every(1, 'min', { heartRate: 143, wbgt: 29 })
        .for(9);
    }
    s.every(1, 'min', { heartRate: 138, wbgt: 29 }).for(20);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('HEATSTROKE', s);
  });

  it('ADVANCED_HEATSTROKE_RISK: aPSI wandering around 7 (HR 130 / 165, hot skin)', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', { heartRate: 150, skinTemperature: 36.5 })
      .for(40);
    for (let i = 0; i < 8; i++) {
      s.every(1, 'min', { heartRate: 130, skinTemperature: 36.5 })
        .for(3)
        .every(1, 'min', { heartRate: 165, skinTemperature: 36.5 })
        .for(3);
    }
    s.every(1, 'min', { heartRate: 80, skinTemperature: 34 }).for(20);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('ADVANCED_HEATSTROKE_RISK', s);
  });

  it('ADVANCED_HEATSTROKE_RISK (ECTEMP model): the estimate wandering around 38.0 C', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', { heartRate: 170 }).for(25);
    for (let i = 0; i < 6; i++) {
      s.every(1, 'min', { heartRate: 60 }).for(3).every(1, 'min', { heartRate: 185 }).for(3);
    }
    s.every(1, 'min', { heartRate: 70 }).for(30);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('ADVANCED_HEATSTROKE_RISK', s, {
      heatStrainModel: 'ECTEMP',
    });
  });

  it('ADVANCED_HEATSTROKE: aPSI wandering around 9 (HR 140 / 175, hot skin)', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', { heartRate: 160, skinTemperature: 36.5 })
      .for(75);
    for (let i = 0; i < 8; i++) {
      s.every(1, 'min', { heartRate: 140, skinTemperature: 36.5 })
        .for(3)
        .every(1, 'min', { heartRate: 175, skinTemperature: 36.5 })
        .for(3);
    }
    s.every(1, 'min', { heartRate: 80, skinTemperature: 34 }).for(30);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('ADVANCED_HEATSTROKE', s);
  });

  it('AWAKENING_ALERT: awake, asleep for two minutes, awake again, all night', () => {
    const s = scenario(SATURDAY_NIGHT);
    for (let i = 0; i < 6; i++) {
      s.every(1, 'min', { sleepStage: 2 }).for(2).every(1, 'min', { sleepStage: 4 }).for(7);
    }
    s.every(1, 'min', { sleepStage: 2 }).for(20);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('AWAKENING_ALERT', s);
  });

  it('NON_WEARING: off the wrist, on for three minutes, off again', () => {
    const s = scenario(SATURDAY_NIGHT);
    for (let i = 0; i < 6; i++) {
      s.every(1, 'min', { worn: false }).for(6).every(1, 'min', { worn: true }).for(3);
    }
    s.every(1, 'min', { worn: true, heartRate: 80 }).for(20);
    expectOneAlertClosingTenMinutesAfterTheLastCrossing('NON_WEARING', s);
  });
});

describe('recovery needs evidence', () => {
  const openThenClear = () =>
    scenario(SATURDAY_NIGHT).reading({ heartRate: 200 }).wait(1).reading({ heartRate: 80 });

  it('a silent bracelet does not recover: ticks neither start nor complete the window', () => {
    const s = openThenClear().wait(1).every(1, 'min', 'tick').for(40);
    expect(run(wearer(), s).closes('HEART_RATE')).toHaveLength(0);
    // The first clear reading at least 10 minutes after the clear began completes it.
    const r = run(wearer(), s.reading({ heartRate: 80 }));
    expect(r.closes('HEART_RATE')).toEqual([expect.objectContaining({ at: at(42) })]);
  });

  it('NON_WEARING: only readings and WORN events say it is on the wrist, not an SOS', () => {
    const s = scenario(SATURDAY_NIGHT).event('REMOVED').every(1, 'min', 'tick').for(6);
    s.event('WORN').wait(11).event('SOS');
    expect(run(wearer(), s).closes('NON_WEARING')).toHaveLength(0);
    const r = run(wearer(), s.wait(1).event('WORN'));
    expect(r.closes('NON_WEARING')).toEqual([expect.objectContaining({ at: at(18) })]);
  });

  it('a late reading from before the clear began does not restart it; one after it does', () => {
    const before = openThenClear().wait(5).reading({ heartRate: 80 });
    before.at(at(0.5), { heartRate: 210 }).wait(5).reading({ heartRate: 80 });
    expect(run(wearer(), before).closes('HEART_RATE')).toEqual([
      expect.objectContaining({ at: at(11) }),
    ]);
    const after = openThenClear().wait(5).reading({ heartRate: 80 });
    after.at(at(3), { heartRate: 210 }).wait(5).reading({ heartRate: 80 });
    expect(run(wearer(), after).closes('HEART_RATE')).toHaveLength(0);
  });

  it('follows the organisation: recoveryMinutes 0 closes on the first clear reading', () => {
    const r = run(wearer({ recoveryMinutes: 0 }), openThenClear());
    expect(r.closes('HEART_RATE')).toEqual([expect.objectContaining({ at: at(1) })]);
    const longer = run(
      wearer({ recoveryMinutes: 30 }),
      openThenClear().wait(1).every(1, 'min', { heartRate: 80 }).for(40),
    );
    expect(longer.closes('HEART_RATE')).toEqual([expect.objectContaining({ at: at(31) })]);
  });

  it('the cooldown still applies after a recovery', () => {
    const s = openThenClear().wait(1).every(1, 'min', { heartRate: 80 }).for(10);
    s.every(1, 'min', { heartRate: 200 }).for(20);
    const r = run(wearer({ settings: { cooldownMinutes: 15 } }), s);
    expect(r.opens('HEART_RATE').map((o) => o.at)).toEqual([at(0), at(26)]);
  });

  it('DISCONNECTION closes on the next reading at once, never before it opened', () => {
    const s = scenario(SATURDAY_NIGHT).reading({ heartRate: 80 }).wait(1);
    s.every(1, 'min', 'tick').for(12).reading({ heartRate: 80 });
    const r = run(wearer(), s);
    expect(r.closes('DISCONNECTION')).toEqual([expect.objectContaining({ at: at(13) })]);
    // A backlog reading older than the alert proves the link is back, but the alert cannot
    // have closed before it opened.
    const late = run(wearer(), scenario(SATURDAY_NIGHT).reading({ heartRate: 80 }).wait(1)).state;
    const silent = run(wearer(), scenario(at(1)).every(1, 'min', 'tick').for(12), {
      state: late,
    });
    const backlog = run(wearer(), [{ kind: 'reading', at: at(2), heartRate: 80 }], {
      state: silent.state,
    });
    expect(silent.opens('DISCONNECTION')[0]!.at).toEqual(at(10));
    expect(backlog.closes('DISCONNECTION')).toEqual([expect.objectContaining({ at: at(10) })]);
  });

  it('an engine state stored before recovery windows loads and recovers with the window', () => {
    const old = {
      version: 1,
      lastReadingAt: at(0).getTime(),
      alerts: { open: { HEART_RATE: at(0).getTime() }, closed: {} },
    };
    let state = normalizeState(JSON.parse(JSON.stringify(old)));
    const effects: EngineEffect[] = [];
    for (let m = 1; m <= 12; m++) {
      const result = step(wearer(), state, { kind: 'reading', at: at(m), heartRate: 80 });
      state = result.state;
      effects.push(...result.effects);
    }
    expect(effects).toEqual([expect.objectContaining({ kind: 'close', at: at(11) })]);
  });
});

describe('backlog equals live: every window runs on the readings own times', () => {
  // Two and a half hours of a worker in the heat: the heart rate wanders around the upper
  // bound and the sustained threshold, the site around WBGT 28, the bracelet comes off once.
  const readings: EngineInput[] = [];
  for (let m = 0; m < 150; m++) {
    const heartRate = m < 30 ? 90 : m < 100 ? [150, 178, 182, 160, 145][m % 5]! : 95;
    const worn = !(m >= 110 && m < 118);
    readings.push({
      kind: 'reading',
      at: new Date(at(m).getTime() + 5_000),
      heartRate,
      wbgt: m % 7 < 4 ? 28.5 : 27.5,
      skinTemperature: 36,
      worn,
    });
  }
  const tick = (m: number): EngineInput => ({
    kind: 'tick',
    at: new Date(at(m).getTime() + 30_000),
  });

  const feed = (inputs: EngineInput[]) => {
    let state = initialState();
    const effects: EngineEffect[] = [];
    for (const input of inputs) {
      const result = step(wearer(), JSON.parse(JSON.stringify(state)) as typeof state, input);
      state = result.state;
      effects.push(...result.effects);
    }
    return effects;
  };

  it('a gateway that re-sends an hour after an outage produces the same alerts as live', () => {
    // Live: each reading as it is taken, the runner's tick every minute in between.
    const live = feed(readings.flatMap((r, m) => [r, tick(m)]));
    // Outage from minute 40 to 100: the runner still ticks, nothing arrives; then the gateway
    // sends the hour in one batch (in time order, as the runner feeds a batch), then live again.
    const outage = (m: number) => m >= 40 && m < 100;
    const replayed = feed([
      ...readings.slice(0, 40).flatMap((r, m) => [r, tick(m)]),
      ...readings.slice(40, 100).map((_, i) => tick(40 + i)),
      ...readings.filter((_, m) => outage(m)),
      ...readings.slice(100).flatMap((r, i) => [r, tick(100 + i)]),
    ]);

    const personal = (effects: EngineEffect[]) =>
      effects.filter((e) => e.alertType !== 'DISCONNECTION');
    expect(personal(live).length).toBeGreaterThanOrEqual(4);
    expect(personal(replayed)).toEqual(personal(live));
    // The only difference is the truth of the outage: the console did not hear from the bracelet.
    expect(live.filter((e) => e.alertType === 'DISCONNECTION')).toEqual([]);
    expect(replayed.filter((e) => e.alertType === 'DISCONNECTION').map((e) => e.kind)).toEqual([
      'open',
      'close',
    ]);
  });
});
