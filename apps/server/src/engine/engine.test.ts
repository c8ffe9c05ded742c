import {
  ALERT_LEVEL_OF,
  ALERT_TYPES,
  PHYSIOLOGICAL_ALERT_TYPES,
  WEEKDAYS,
  type AlertSettingsInput,
  type AlertType,
  type WeeklySchedule,
} from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { initialState, step } from './engine.js';
import { CLOSE_POLICY } from './lifecycle.js';
import { run, SATURDAY_NIGHT, scenario, wearer, type Scenario } from './testing/scenario.js';

type Fragment = (s: Scenario) => Scenario;
interface Case {
  /** Makes the condition hold long enough to open. */
  fire: Fragment;
  /** One more minute of the condition. */
  hold: Fragment;
  /**
   * Clears the condition for the recovery window (10 minutes) and one minute more; absent for
   * alerts that close only by confirmation.
   */
  recover?: Fragment;
  cause: { rule: string; values: Record<string, unknown> };
}

const HOT = { heartRate: 170 };
const CASES: Record<AlertType, Case> = {
  SOS_CALL: {
    fire: (s) => s.event('SOS').wait(1),
    hold: (s) => s.event('SOS').wait(1),
    cause: { rule: 'sos-button', values: { event: 'SOS' } },
  },
  DETECT_FALL_DOWN: {
    fire: (s) => s.event('FALL').wait(1),
    hold: (s) => s.event('FALL').wait(1),
    cause: { rule: 'fall-detected', values: { event: 'FALL' } },
  },
  HEART_RATE: {
    fire: (s) => s.reading({ heartRate: 200 }).wait(1),
    hold: (s) => s.reading({ heartRate: 200 }).wait(1),
    recover: (s) => s.every(1, 'min', { heartRate: 80 }).for(11),
    cause: {
      rule: 'heart-rate-above-upper-bound',
      values: { heartRate: 200, upperBound: 180, lowerBound: 40 },
    },
  },
  HEART_RATE_ANOMALY_SUSTAINED: {
    // 85% of 180 = 153; readings at minutes 0..8 span the 8-minute window.
    fire: (s) => s.every(1, 'min', HOT).for(9),
    hold: (s) => s.reading(HOT).wait(1),
    recover: (s) => s.every(1, 'min', { heartRate: 80 }).for(11),
    cause: {
      rule: 'heart-rate-above-85pct-max-sustained',
      values: {
        heartRate: 170,
        threshold: 153,
        maxHeartRate: 180,
        readings: 9,
        minutes: 8,
        lowestHeartRate: 170,
      },
    },
  },
  HEATSTROKE: {
    // WBGT >= 28 with HR above 180 - 40 over the 8-minute window: the person's own strain.
    fire: (s) => s.every(1, 'min', { heartRate: 145, wbgt: 29 }).for(9),
    hold: (s) => s.reading({ heartRate: 145, wbgt: 29 }).wait(1),
    recover: (s) => s.every(1, 'min', { heartRate: 80, wbgt: 25 }).for(11),
    cause: {
      rule: 'wbgt-caution-with-heart-rate-sustained',
      values: { wbgt: 29, wbgtThreshold: 28, heartRate: 145, heartRateLimit: 140 },
    },
  },
  ADVANCED_HEATSTROKE_RISK: {
    fire: (s) => s.every(1, 'min', HOT).for(25),
    hold: (s) => s.reading(HOT).wait(1),
    recover: (s) => s.every(1, 'min', { heartRate: 60 }).for(11),
    cause: {
      rule: 'ectemp',
      values: { threshold: 38, heartRate: 170, baselineCoreTemperature: 37.1 },
    },
  },
  ADVANCED_HEATSTROKE: {
    // PSI with HR0 = 90 (capped) reaches 7 before ECTemp reaches 38.5.
    fire: (s) => s.every(1, 'min', HOT).for(40),
    hold: (s) => s.reading(HOT).wait(1),
    recover: (s) => s.every(1, 'min', { heartRate: 60 }).for(12),
    cause: { rule: 'psi', values: { threshold: 7, heartRate: 170, baselineHeartRate: 90 } },
  },
  AWAKENING_ALERT: {
    fire: (s) => s.reading({ sleepStage: 2 }).wait(1).every(1, 'min', { sleepStage: 4 }).for(6),
    hold: (s) => s.reading({ sleepStage: 4 }).wait(1),
    recover: (s) => s.every(1, 'min', { sleepStage: 1 }).for(11),
    cause: {
      rule: 'awake-after-sleep-in-sleep-window',
      values: { awakeMinutes: 5, threshold: 5, sleepStage: 4 },
    },
  },
  DISCONNECTION: {
    fire: (s) => s.reading({ heartRate: 80 }).wait(1).every(1, 'min', 'tick').for(10),
    hold: (s) => s.tick().wait(1),
    // Closes on the next reading at once (CLOSE_POLICY), so one is enough.
    recover: (s) => s.reading({ heartRate: 80 }).wait(1),
    cause: {
      rule: 'no-reading',
      values: { minutesWithoutReading: 10, limitMinutes: 10, dutyCycleMinutes: 1 },
    },
  },
  NON_WEARING: {
    fire: (s) => s.reading({ worn: false }).wait(1).every(1, 'min', 'tick').for(5),
    hold: (s) => s.reading({ worn: false }).wait(1),
    recover: (s) => s.every(1, 'min', { worn: true }).for(11),
    cause: { rule: 'not-worn', values: { notWornMinutes: 5, limitMinutes: 5 } },
  },
};

const MIN = 60_000;
const closedSchedule = Object.fromEntries(
  WEEKDAYS.map((d) => [d, { enabled: false, startTime: '00:00', endTime: '23:59' }]),
) as WeeklySchedule;
const profileWith = (settings: AlertSettingsInput = {}) => wearer({ settings });

describe.each(ALERT_TYPES)('%s', (type) => {
  const c = CASES[type];
  const level = ALERT_LEVEL_OF[type];

  it(`opens once at level ${level} with the cause that made it fire`, () => {
    const r = run(profileWith(), scenario(SATURDAY_NIGHT).then(c.fire).then(c.hold, 3));
    const opens = r.opens(type);
    expect(opens).toHaveLength(1);
    const open = opens[0]!;
    expect(open.level).toBe(level);
    expect(open.notify).toBe(true);
    expect(open.cause.rule).toBe(c.cause.rule);
    expect(open.cause.values).toMatchObject(c.cause.values);
    expect(Date.parse(open.cause.windowStart)).toBeLessThanOrEqual(
      Date.parse(open.cause.windowEnd),
    );
    expect(open.cause.windowEnd).toBe(open.at.toISOString());
  });

  it('closes when staff confirm it', () => {
    const r = run(
      profileWith(),
      scenario(SATURDAY_NIGHT).then(c.fire).confirm(type).wait(1).confirm(type),
    );
    expect(r.closes(type)).toEqual([
      { kind: 'close', alertType: type, at: expect.any(Date), reason: 'confirmed' },
    ]);
  });

  if (c.recover) {
    const recover = c.recover;
    const window = CLOSE_POLICY[type] === 'recovery-window' ? 10 : 0;
    it(`closes as recovered ${window} minutes after the condition cleared`, () => {
      const s = scenario(SATURDAY_NIGHT).then(c.fire);
      const clearFrom = s.now.getTime();
      const r = run(profileWith(), s.then(recover));
      expect(r.opens(type)).toHaveLength(1);
      const closes = r.closes(type);
      expect(closes).toHaveLength(1);
      expect(closes[0]!.reason).toBe('recovered');
      // The estimated core temperature lags a minute behind the heart rate; the others clear at once.
      const lag = type === 'ADVANCED_HEATSTROKE' ? 1 : 0;
      expect((closes[0]!.at.getTime() - clearFrom) / MIN).toBe(window + lag);
    });

    it('re-opens only after the cooldown since it closed', () => {
      const script = scenario(SATURDAY_NIGHT).then(c.fire).then(recover).then(c.hold, 45);
      const reopenGap = (cooldownMinutes: number) => {
        const r = run(profileWith({ cooldownMinutes }), script);
        const opens = r.opens(type);
        expect(opens).toHaveLength(2);
        return (opens[1]!.at.getTime() - r.closes(type)[0]!.at.getTime()) / MIN;
      };
      // Without a cooldown the condition is back well within 30 minutes...
      expect(reopenGap(0)).toBeLessThan(30);
      // ...with one it waits, then re-opens as soon as allowed.
      const gap = reopenGap(30);
      expect(gap).toBeGreaterThanOrEqual(30);
      expect(gap).toBeLessThan(32);
    });
  } else {
    it('never recovers on its own; a new event after confirmation opens a new alert at once', () => {
      const script = scenario(SATURDAY_NIGHT)
        .then(c.fire)
        .every(1, 'min', { heartRate: 80 })
        .for(120);
      script.tick().then(c.hold).confirm(type).wait(1).then(c.hold);
      const r = run(profileWith({ cooldownMinutes: 30 }), script);
      expect(r.closes(type).map((e) => e.reason)).toEqual(['confirmed']);
      const opens = r.opens(type);
      expect(opens).toHaveLength(2);
      expect(opens[1]!.at.getTime() - r.closes(type)[0]!.at.getTime()).toBe(MIN);
    });
  }

  it(`outside the schedule: recorded, ${level === 'EMERGENCY' ? 'still notified (EMERGENCY)' : 'not notified'}`, () => {
    const r = run(profileWith({ schedule: closedSchedule }), scenario(SATURDAY_NIGHT).then(c.fire));
    expect(r.opens(type)).toHaveLength(1);
    expect(r.opens(type)[0]!.notify).toBe(level === 'EMERGENCY');
  });

  const physiological = PHYSIOLOGICAL_ALERT_TYPES.includes(type);
  it(
    physiological
      ? 'stays quiet while the bracelet is not worn'
      : 'still fires while the bracelet is not worn',
    () => {
      const r = run(
        profileWith(),
        scenario(SATURDAY_NIGHT).event('REMOVED').then(c.fire).then(c.hold, 3),
      );
      expect(r.opens(type)).toHaveLength(physiological ? 0 : 1);
    },
  );

  it('never fires when disabled for the wearer', () => {
    const r = run(
      profileWith({ enabled: { [type]: false } }),
      scenario(SATURDAY_NIGHT).then(c.fire).then(c.hold, 3),
    );
    expect(r.opens(type)).toHaveLength(0);
  });

  it('gives identical effects when the state goes through JSON mid-scenario (restart)', () => {
    const script = scenario(SATURDAY_NIGHT).then(c.fire).then(c.hold, 2);
    if (c.recover) script.then(c.recover);
    script.then(c.hold, 35).confirm(type).then(c.hold, 2);
    const profile = profileWith({ cooldownMinutes: 20 });
    const straight = run(profile, script);
    expect(straight.opens(type).length).toBeGreaterThan(0);
    const middle = Math.floor(script.inputs.length / 2);
    expect(run(profile, script, { restartBefore: [middle] }).effects).toEqual(straight.effects);
    const everyStep = run(profile, script, { restartBefore: 'all' });
    expect(everyStep.effects).toEqual(straight.effects);
    expect(everyStep.state).toEqual(straight.state);
  });
});

describe('engine state', () => {
  it('starts empty, is plain JSON, and step never mutates the given state', () => {
    const state = initialState();
    const frozen = JSON.stringify(state);
    const r = step(wearer(), state, { kind: 'reading', at: SATURDAY_NIGHT, heartRate: 200 });
    expect(JSON.stringify(state)).toBe(frozen);
    expect(JSON.parse(JSON.stringify(r.state))).toEqual(r.state);
  });

  it('stays small after a long day of readings (bounded windows)', () => {
    const r = run(
      wearer(),
      scenario(SATURDAY_NIGHT)
        .every(1, 'min', { heartRate: 150, wbgt: 29, sleepStage: 2 })
        .for(24 * 60),
    );
    expect(JSON.stringify(r.state).length).toBeLessThan(1_000);
  });

  it('a bad stored setting falls back to its default; the others are kept', () => {
    const profile = wearer({
      settings: { heartRateUpper: 150, cooldownMinutes: -5, surprise: 1 } as AlertSettingsInput,
    });
    const r = run(profile, scenario(SATURDAY_NIGHT).reading({ heartRate: 160 }));
    expect(r.opens('HEART_RATE')[0]?.cause.values).toMatchObject({ upperBound: 150 });
  });
});
