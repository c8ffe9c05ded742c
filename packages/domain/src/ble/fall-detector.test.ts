/**
 * The fall detector on the synthetic traces of testing/motion-traces.ts (50 Hz, like a phone's
 * `devicemotion`); the expected outcome and its reason are written next to each trace there.
 * Thresholds: FALL_THRESHOLDS (free fall < 0.6 g for >= 100 ms, impact >= 2.8 g within 1 s,
 * 1 s settling, then 2 s still: every half second's mean |magnitude - 1 g| <= 0.15 g).
 */
import { describe, expect, it } from 'vitest';
import {
  LYING_STILL,
  MOTION_SCENARIOS,
  ONE_STRIDE,
  STANDING,
  constantG,
  motionTrace,
  stepsG,
} from '../testing/motion-traces.js';
import {
  FALL_DETECTOR_START,
  type DetectedFall,
  type FallDetectorState,
  stepFallDetector,
} from './fall-detector.js';
import type { MotionSample } from './motion.js';

function run(samples: MotionSample[], start: FallDetectorState = FALL_DETECTOR_START) {
  const falls: DetectedFall[] = [];
  let state = start;
  for (const sample of samples) {
    const step = stepFallDetector(state, sample);
    state = step.state;
    if (step.fall) falls.push(step.fall);
  }
  return { falls, state };
}

describe('fall detector: the issue’s traces', () => {
  const table = Object.entries(MOTION_SCENARIOS).map(
    ([name, scenario]) =>
      [name, scenario.fall ? 'FALL' : 'no fall', scenario.why, scenario] as const,
  );
  it.each(table)('%s -> %s: %s', (_name, _outcome, _why, { segments, fall }) => {
    expect(run(motionTrace(segments)).falls).toHaveLength(fall ? 1 : 0);
  });
});

describe('fall detector: what it reports', () => {
  it('a fall: impact time, decision 3 s later, free-fall length, lowest and highest g', () => {
    const { falls } = run(motionTrace(MOTION_SCENARIOS.fall!.segments));
    // Impact on the 3.5 g sample at 2,000 + 400 + 20 ms; decided after 1 s settling + 2 s still.
    expect(falls).toEqual([
      {
        impactAt: 2420,
        detectedAt: 5420,
        freeFallMs: 400,
        minG: expect.closeTo(0.25, 6) as number,
        peakG: expect.closeTo(3.5, 6) as number,
        stillnessG: expect.any(Number) as number,
      },
    ]);
    expect(falls[0]!.stillnessG).toBeLessThan(0.05);
  });

  it('the dropped phone is perfectly still (stillnessG near 0), unlike a breathing body', () => {
    const dropped = run(motionTrace(MOTION_SCENARIOS.phoneDroppedOnATable!.segments)).falls[0]!;
    const person = run(motionTrace(MOTION_SCENARIOS.fall!.segments)).falls[0]!;
    expect(dropped.stillnessG).toBeLessThan(0.001);
    expect(person.stillnessG).toBeGreaterThan(0.01);
  });

  it('a pothole on the bumpy ride does reach the stillness judgement (then fails it)', () => {
    const firstPothole = MOTION_SCENARIOS.phoneInABagOnABumpyRide!.segments.slice(0, 3);
    expect(run(motionTrace(firstPothole)).state.impact).not.toBeNull();
  });

  it('a gap in the samples after the impact drops the fall in progress (we did not see stillness)', () => {
    const before = motionTrace([STANDING, [400, constantG(0.25)], stepsG(3.5, 2.0)]);
    const last = before[before.length - 1]!.t;
    const after = motionTrace([LYING_STILL]).map((s) => ({ ...s, t: s.t + last + 2000 }));
    expect(run([...before, ...after]).falls).toEqual([]);
  });

  it('skips samples with a missing axis or a time not after the previous one', () => {
    const fall = motionTrace(MOTION_SCENARIOS.fall!.segments);
    const noisy = fall.flatMap((s, i) =>
      i % 10 === 0 ? [s, { ...s, x: Number.NaN }, { ...s, t: s.t - 5, z: 0 }] : [s],
    );
    expect(run(noisy).falls).toHaveLength(1);
  });

  it('keeps constant memory: the state after ten minutes of running is as big as after one stride', () => {
    const strides = Array.from({ length: 1700 }, () => ONE_STRIDE).flat();
    const short = run(motionTrace([STANDING, ...ONE_STRIDE])).state;
    const long = run(motionTrace([STANDING, ...strides])).state;
    expect(JSON.stringify(long).length).toBeLessThanOrEqual(JSON.stringify(short).length + 200);
    expect(Object.keys(long)).toEqual(Object.keys(FALL_DETECTOR_START));
  });
});
