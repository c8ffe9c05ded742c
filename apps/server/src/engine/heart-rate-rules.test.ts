import { describe, expect, it } from 'vitest';
import { run, SATURDAY_NIGHT, scenario, wearer } from './testing/scenario.js';

const at = (minutes: number) => new Date(SATURDAY_NIGHT.getTime() + minutes * 60_000);

describe('HEART_RATE bounds', () => {
  it('fires below the lower bound, naming it', () => {
    const r = run(wearer(), scenario(SATURDAY_NIGHT).reading({ heartRate: 35 }));
    expect(r.opens('HEART_RATE')[0]?.cause).toMatchObject({
      rule: 'heart-rate-below-lower-bound',
      values: { heartRate: 35, lowerBound: 40, upperBound: 180 },
    });
  });

  it.each([
    [20, 190, 0],
    [20, 195, 1],
    [null, 181, 1],
    [null, 180, 0],
  ])('age %s: HR %s opens %s alert(s) (upper = 208 - 0.7 x age)', (age, heartRate, count) => {
    const r = run(wearer({ age }), scenario(SATURDAY_NIGHT).reading({ heartRate }));
    expect(r.opens('HEART_RATE')).toHaveLength(count);
  });

  it('an explicit upper bound wins: 150 fires at 151, not at 150', () => {
    const profile = wearer({ settings: { heartRateUpper: 150 } });
    expect(run(profile, scenario(SATURDAY_NIGHT).reading({ heartRate: 150 })).opens()).toHaveLength(
      0,
    );
    expect(
      run(profile, scenario(SATURDAY_NIGHT).reading({ heartRate: 151 })).opens('HEART_RATE'),
    ).toHaveLength(1);
  });

  it('ignores the heart rate of a reading taken off the wrist', () => {
    const r = run(wearer(), scenario(SATURDAY_NIGHT).reading({ heartRate: 230, worn: false }));
    expect(r.opens('HEART_RATE')).toHaveLength(0);
  });

  it('a late (out-of-order) reading may open but never closes', () => {
    const s = scenario(SATURDAY_NIGHT)
      .wait(10)
      .reading({ heartRate: 80 })
      .at(at(5), { heartRate: 210 });
    s.wait(1).reading({ heartRate: 205 }).at(at(2), { heartRate: 70 });
    const r = run(wearer(), s);
    expect(r.opens('HEART_RATE')).toHaveLength(1);
    expect(r.opens('HEART_RATE')[0]!.at).toEqual(at(5));
    expect(r.closes('HEART_RATE')).toHaveLength(0);
  });
});

describe('HEART_RATE_ANOMALY_SUSTAINED window', () => {
  const HOT = { heartRate: 170 }; // above 153 = 85% of 180

  it('does not fire before the window is covered', () => {
    const r = run(wearer(), scenario(SATURDAY_NIGHT).every(1, 'min', HOT).for(8));
    expect(r.opens('HEART_RATE_ANOMALY_SUSTAINED')).toHaveLength(0);
  });

  it('follows the wearer setting sustainedMinutes', () => {
    const r = run(
      wearer({ settings: { sustainedMinutes: 3 } }),
      scenario(SATURDAY_NIGHT).every(1, 'min', HOT).for(10),
    );
    expect(r.opens('HEART_RATE_ANOMALY_SUSTAINED')[0]!.at).toEqual(at(3));
  });

  it('duty cycle 10 (longer than the window): two consecutive readings are enough', () => {
    const profile = wearer({ dutyCycleMinutes: 10 });
    expect(run(profile, scenario(SATURDAY_NIGHT).reading(HOT)).opens()).toHaveLength(0);
    const r = run(profile, scenario(SATURDAY_NIGHT).every(10, 'min', HOT).for(20));
    const open = r.opens('HEART_RATE_ANOMALY_SUSTAINED');
    expect(open).toHaveLength(1);
    expect(open[0]!.at).toEqual(at(10));
    expect(open[0]!.cause.values).toMatchObject({ readings: 2, minutes: 10 });
  });

  it('duty cycle 5: the third reading covers 8 minutes', () => {
    const r = run(
      wearer({ dutyCycleMinutes: 5 }),
      scenario(SATURDAY_NIGHT).every(5, 'min', HOT).for(15),
    );
    expect(r.opens('HEART_RATE_ANOMALY_SUSTAINED')[0]!.at).toEqual(at(10));
  });

  it('a reading at or below the threshold restarts the window', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', HOT)
      .for(5)
      .reading({ heartRate: 153 })
      .wait(1);
    const r = run(wearer(), s.every(1, 'min', HOT).for(5));
    expect(r.opens('HEART_RATE_ANOMALY_SUSTAINED')).toHaveLength(0);
  });

  it('a gap in the data (more than two duty cycles) restarts the window', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', HOT)
      .for(5)
      .wait(5)
      .every(1, 'min', HOT)
      .for(9);
    const r = run(wearer(), s);
    expect(r.opens('HEART_RATE_ANOMALY_SUSTAINED')[0]!.at).toEqual(at(18));
  });

  it('one missed reading does not break it', () => {
    const s = scenario(SATURDAY_NIGHT)
      .every(1, 'min', HOT)
      .for(4)
      .wait(1)
      .every(1, 'min', HOT)
      .for(4);
    expect(run(wearer(), s).opens('HEART_RATE_ANOMALY_SUSTAINED')[0]!.at).toEqual(at(8));
  });

  it('late readings neither extend nor break the window', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', HOT).for(8);
    s.at(at(3), { heartRate: 80 }).at(at(2), HOT);
    const quiet = run(wearer(), s);
    expect(quiet.opens('HEART_RATE_ANOMALY_SUSTAINED')).toHaveLength(0);
    expect(quiet.state.sustained).toMatchObject({ count: 8, last: at(7).getTime() });
    const r = run(wearer(), s.reading(HOT));
    expect(r.opens('HEART_RATE_ANOMALY_SUSTAINED')[0]!.cause.values).toMatchObject({ readings: 9 });
  });

  it('a late low reading does not close an open sustained alert', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', HOT).for(10).at(at(4), { heartRate: 70 });
    const r = run(wearer(), s);
    expect(r.opens('HEART_RATE_ANOMALY_SUSTAINED')).toHaveLength(1);
    expect(r.closes()).toHaveLength(0);
  });

  it('taking the bracelet off breaks the window', () => {
    const s = scenario(SATURDAY_NIGHT).every(1, 'min', HOT).for(4).event('REMOVED').event('WORN');
    expect(
      run(wearer(), s.every(1, 'min', HOT).for(5)).opens('HEART_RATE_ANOMALY_SUSTAINED'),
    ).toHaveLength(0);
  });
});
