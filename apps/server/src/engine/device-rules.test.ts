import { BUSINESS_SCHEDULE } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { run, SATURDAY_NIGHT, scenario, wearer } from './testing/scenario.js';

const at = (minutes: number) => new Date(SATURDAY_NIGHT.getTime() + minutes * 60_000);

describe('DISCONNECTION', () => {
  it('waits 3 duty cycles when that is longer than 10 minutes (duty 5: 15 min)', () => {
    const s = scenario(SATURDAY_NIGHT)
      .reading({ heartRate: 80 })
      .wait(1)
      .every(1, 'min', 'tick')
      .for(16);
    const open = run(wearer({ dutyCycleMinutes: 5 }), s).opens('DISCONNECTION');
    expect(open).toHaveLength(1);
    expect(open[0]!.at).toEqual(at(15));
    expect(open[0]!.cause).toMatchObject({
      values: { limitMinutes: 15, minutesWithoutReading: 15, dutyCycleMinutes: 5 },
      windowStart: SATURDAY_NIGHT.toISOString(),
    });
  });

  it('never fires for a bracelet that has not sent anything yet', () => {
    expect(
      run(wearer(), scenario(SATURDAY_NIGHT).every(1, 'min', 'tick').for(60)).opens(),
    ).toHaveLength(0);
  });

  it('device events are not readings: an SOS does not recover it', () => {
    const s = scenario(SATURDAY_NIGHT).reading({ heartRate: 80 }).wait(12).tick().event('SOS');
    expect(run(wearer(), s).closes('DISCONNECTION')).toHaveLength(0);
  });

  it('a late reading older than the newest does not recover it', () => {
    const s = scenario(SATURDAY_NIGHT)
      .wait(5)
      .reading({ heartRate: 80 })
      .wait(12)
      .tick()
      .at(at(3), { heartRate: 80 });
    expect(run(wearer(), s).closes('DISCONNECTION')).toHaveLength(0);
  });
});

describe('NON_WEARING', () => {
  it('from a REMOVED event, checked on ticks; worn for the recovery window closes it', () => {
    const s = scenario(SATURDAY_NIGHT)
      .event('REMOVED')
      .every(1, 'min', 'tick')
      .for(6)
      .event('WORN')
      .every(1, 'min', 'tick')
      .for(15);
    // Ticks alone are no evidence that it is still on the wrist.
    expect(run(wearer(), s).closes('NON_WEARING')).toHaveLength(0);
    const r = run(wearer(), s.every(1, 'min', { heartRate: 80 }).for(1));
    expect(r.opens('NON_WEARING')[0]!.at).toEqual(at(5));
    expect(r.closes('NON_WEARING')).toEqual([
      expect.objectContaining({ reason: 'recovered', at: at(21) }),
    ]);
  });

  it('counts from the first not-worn report, not the latest', () => {
    const r = run(wearer(), scenario(SATURDAY_NIGHT).every(1, 'min', { worn: false }).for(6));
    expect(r.opens('NON_WEARING')[0]!.cause.windowStart).toBe(SATURDAY_NIGHT.toISOString());
  });

  it('an older worn=true report does not override a newer REMOVED event', () => {
    const s = scenario(SATURDAY_NIGHT)
      .wait(2)
      .event('REMOVED')
      .at(at(1), { worn: true, heartRate: 70 });
    const r = run(wearer(), s.wait(1).every(1, 'min', 'tick').for(6));
    expect(r.opens('NON_WEARING')).toHaveLength(1);
  });

  it('follows the wearer setting nonWearingMinutes', () => {
    const profile = wearer({ settings: { thresholds: { nonWearingMinutes: 15 } } });
    const s = scenario(SATURDAY_NIGHT).event('REMOVED').every(1, 'min', 'tick').for(16);
    expect(run(profile, s).opens('NON_WEARING')[0]!.at).toEqual(at(15));
  });
});

describe('AWAKENING_ALERT', () => {
  const awake = { sleepStage: 4 as const };
  it('needs sleep first: awake all evening does not fire', () => {
    expect(
      run(wearer(), scenario(SATURDAY_NIGHT).every(1, 'min', awake).for(30)).opens(),
    ).toHaveLength(0);
  });

  it('only inside the sleep window (Tokyo 22:00-06:00)', () => {
    const afternoon = new Date('2026-11-21T05:00:00Z'); // 14:00 in Tokyo
    const s = scenario(afternoon).reading({ sleepStage: 2 }).wait(1).every(1, 'min', awake).for(10);
    expect(run(wearer(), s).opens()).toHaveLength(0);
    // The same wall-clock time is 05:00 UTC, inside the window for a wearer in UTC.
    expect(run(wearer({ timeZone: 'UTC' }), s).opens('AWAKENING_ALERT')).toHaveLength(1);
  });

  it('recovers on the first reading after the window ends', () => {
    const late = new Date('2026-11-21T20:30:00Z'); // 05:30 in Tokyo
    const s = scenario(late).reading({ sleepStage: 1 }).wait(1).every(1, 'min', awake).for(10);
    const r = run(wearer(), s.wait(30).reading({ heartRate: 70 }));
    expect(r.opens('AWAKENING_ALERT')).toHaveLength(1);
    expect(r.closes('AWAKENING_ALERT')[0]!.reason).toBe('recovered');
  });

  it('follows the wearer sleep window', () => {
    const profile = wearer({ settings: { sleepWindow: { start: '00:00', end: '05:00' } } });
    const s = scenario(SATURDAY_NIGHT)
      .reading({ sleepStage: 2 })
      .wait(1)
      .every(1, 'min', awake)
      .for(10);
    expect(run(profile, s).opens()).toHaveLength(0);
  });
});

describe('SOS and fall', () => {
  it('a repeated press while open is the same incident; SOS and fall are independent', () => {
    const s = scenario(SATURDAY_NIGHT)
      .event('SOS')
      .wait(1)
      .event('SOS')
      .event('FALL')
      .wait(1)
      .event('FALL');
    const r = run(wearer(), s);
    expect(r.opens().map((e) => e.alertType)).toEqual(['SOS_CALL', 'DETECT_FALL_DOWN']);
  });

  it('is raised even when the bracelet is not worn', () => {
    const r = run(wearer(), scenario(SATURDAY_NIGHT).reading({ worn: false }).event('FALL'));
    expect(r.opens('DETECT_FALL_DOWN')).toHaveLength(1);
  });
});

describe('schedule and confirmation', () => {
  it('BUSINESS schedule: Saturday is recorded without notifying, Monday 10:00 Tokyo notifies', () => {
    const profile = wearer({ settings: { schedule: BUSINESS_SCHEDULE } });
    const saturday = run(
      profile,
      scenario(new Date('2026-11-21T01:00:00Z')).reading({ heartRate: 200 }),
    );
    const monday = run(
      profile,
      scenario(new Date('2026-11-23T01:00:00Z')).reading({ heartRate: 200 }),
    );
    expect(saturday.opens('HEART_RATE')[0]!.notify).toBe(false);
    expect(monday.opens('HEART_RATE')[0]!.notify).toBe(true);
  });

  it('confirming an alert that is not open does nothing', () => {
    const r = run(wearer(), scenario(SATURDAY_NIGHT).confirm('SOS_CALL').confirm('HEART_RATE'));
    expect(r.effects).toEqual([]);
  });

  it('a confirmed condition that persists re-opens after the cooldown', () => {
    const s = scenario(SATURDAY_NIGHT).reading({ heartRate: 200 }).wait(1).confirm('HEART_RATE');
    const r = run(wearer(), s.every(1, 'min', { heartRate: 200 }).for(12));
    expect(r.opens('HEART_RATE').map((e) => e.at)).toEqual([at(0), at(11)]);
  });

  it('ignores an input with an invalid time instead of crashing', () => {
    const r = run(wearer(), [{ kind: 'reading', at: new Date('nope'), heartRate: 200 }]);
    expect(r.effects).toEqual([]);
  });
});

describe('profile robustness', () => {
  it('an unknown time zone falls back to Tokyo instead of throwing', () => {
    const s = scenario(SATURDAY_NIGHT)
      .reading({ sleepStage: 2 })
      .wait(1)
      .every(1, 'min', { sleepStage: 4 })
      .for(6);
    const r = run(wearer({ timeZone: 'Mars/Olympus_Mons' }), s.reading({ heartRate: 200 }));
    expect(r.opens().map((e) => e.alertType)).toEqual(['AWAKENING_ALERT', 'HEART_RATE']);
  });
});

describe('DETECT_FALL_DOWN with a cause (issue 16, man-down)', () => {
  it('a man-down FALL is the same EMERGENCY alert, its cause naming the still minutes and their window', () => {
    const s = scenario(SATURDAY_NIGHT)
      .wait(10)
      .event('FALL', { trigger: 'man-down', stillMinutes: 5 });
    const [open] = run(wearer(), s).opens('DETECT_FALL_DOWN');
    expect(open).toMatchObject({
      level: 'EMERGENCY',
      at: at(10),
      cause: {
        rule: 'man-down',
        values: { event: 'FALL', trigger: 'man-down', stillMinutes: 5 },
        windowStart: at(5).toISOString(),
        windowEnd: at(10).toISOString(),
      },
    });
  });

  it('an impact FALL stays fall-detected, saying its trigger', () => {
    const s = scenario(SATURDAY_NIGHT).event('FALL', { trigger: 'impact' });
    expect(run(wearer(), s).opens('DETECT_FALL_DOWN')[0]!.cause).toMatchObject({
      rule: 'fall-detected',
      values: { event: 'FALL', trigger: 'impact' },
    });
  });
});
