/**
 * The fall detector on synthetic acceleration traces, 50 Hz like a phone's `devicemotion`.
 * Each trace is a list of segments (duration, magnitude in g over the segment's own time);
 * the expected outcome is written next to each. Thresholds: FALL_THRESHOLDS (free fall
 * < 0.6 g for >= 100 ms, impact >= 2.8 g within 1 s, 1 s settling, then 2 s still: every
 * half second's mean |magnitude - 1 g| <= 0.15 g). The traces are ours, shaped after the
 * published descriptions of falls and daily activities (docs/phone-gateway.md), not recordings.
 */
import { describe, expect, it } from 'vitest';
import {
  FALL_DETECTOR_START,
  type DetectedFall,
  type FallDetectorState,
  stepFallDetector,
} from './fall-detector.js';
import { type MotionSample, STANDARD_GRAVITY } from './motion.js';

const HZ = 50;
const DT = 1000 / HZ;

type Segment = [ms: number, g: (s: number) => number];

/** Samples along the z axis (the detector only reads the magnitude). */
function trace(...segments: Segment[]): MotionSample[] {
  const samples: MotionSample[] = [];
  let t = 0;
  for (const [ms, g] of segments) {
    for (let local = 0; local < ms; local += DT, t += DT) {
      samples.push({ t, x: 0, y: 0, z: g(local / 1000) * STANDARD_GRAVITY });
    }
  }
  return samples;
}

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

const wave =
  (hz: number, amplitude: number, mean = 1) =>
  (s: number) =>
    mean + amplitude * Math.sin(2 * Math.PI * hz * s);
const constant = (g: number) => () => g;
/** Sample by sample values, one per 20 ms. */
const steps = (...values: number[]): Segment => [
  values.length * DT,
  (s) => values[Math.round((s * 1000) / DT)]!,
];

const standing: Segment = [2000, wave(1.5, 0.02)]; // body sway
const lyingStill: Segment = [5000, wave(0.25, 0.03)]; // breathing
const oneStride: Segment[] = [
  [120, constant(0.15)], // flight: both feet off the ground
  steps(3.2, 2.6), // foot strike
  [200, constant(1.3)], // stance
];

describe('fall detector: synthetic traces', () => {
  it('a fall (standing, 400 ms free fall, 3.5 g impact, bounce, lying still) -> FALL', () => {
    const samples = trace(
      standing,
      [400, constant(0.25)],
      steps(2.0, 3.5, 2.2),
      [300, wave(5, 0.6)],
      lyingStill,
    );
    const { falls } = run(samples);
    expect(falls).toHaveLength(1);
    const fall = falls[0]!;
    // Impact at 2,000 + 400 + 20 ms (the 3.5 g sample); decided 3 s later (settle + still).
    expect(fall.impactAt).toBe(2420);
    expect(fall.detectedAt).toBe(5420);
    expect(fall.freeFallMs).toBe(400);
    expect(fall.minG).toBeCloseTo(0.25, 6);
    expect(fall.peakG).toBeCloseTo(3.5, 6);
    expect(fall.stillnessG).toBeLessThan(0.05);
  });

  it('sitting down hard (controlled lowering at 0.75 g, 2.2 g bump, sitting still) -> no fall', () => {
    const samples = trace(standing, [500, constant(0.75)], steps(1.6, 2.2, 1.5), [
      5000,
      wave(0.25, 0.02),
    ]);
    expect(run(samples).falls).toEqual([]);
  });

  it('plopping into a chair (60 ms at 0.5 g, 3 g) -> no fall: the drop is too short', () => {
    const samples = trace(standing, steps(0.5, 0.5, 0.5), steps(3.0, 1.4), [
      5000,
      wave(0.25, 0.02),
    ]);
    expect(run(samples).falls).toEqual([]);
  });

  it('running (2.8 strides a second: flight 120 ms at 0.15 g, 3.2 g strikes) -> no fall', () => {
    // Every stride is a free fall and an impact; the strides that follow are not stillness.
    const strides = Array.from({ length: 30 }, () => oneStride).flat();
    expect(run(trace(standing, ...strides)).falls).toEqual([]);
  });

  it('running, slowing to a walk for 2 s, then standing still -> no fall', () => {
    const strides = Array.from({ length: 10 }, () => oneStride).flat();
    const walking: Segment = [2000, wave(1.8, 0.3)];
    expect(run(trace(standing, ...strides, walking, [5000, wave(1.5, 0.02)])).falls).toEqual([]);
  });

  it('running that stops dead and stands still within a second of a stride -> FALL (a prompt)', () => {
    // Accepted false alarm: it has all three phases; the worker cancels the countdown with a tap.
    const strides = Array.from({ length: 10 }, () => oneStride).flat();
    expect(run(trace(standing, ...strides, [5000, wave(1.5, 0.02)])).falls).toHaveLength(1);
  });

  it('a fall at the end of a run (stride, stride, trip, lying still) -> FALL', () => {
    const strides = Array.from({ length: 6 }, () => oneStride).flat();
    const samples = trace(standing, ...strides, [400, constant(0.3)], steps(3.8, 2.0), lyingStill);
    expect(run(samples).falls).toHaveLength(1);
  });

  it('the phone dropped on a table (250 ms at 0 g, 6 g, perfectly still) -> FALL, decided on purpose', () => {
    // Free fall, impact and stillness with no person: the detector cannot tell, and reports it.
    // The page's 30 s "are you all right?" countdown settles it: a worker who dropped the phone
    // picks it up and taps "I'm all right"; a phone left lying where nobody answers is a worker
    // no longer monitored, and staff should be told (docs/phone-gateway.md).
    const samples = trace(
      [1000, wave(8, 0.05)], // in the hand: tremor
      [250, constant(0.02)],
      steps(6.0, 0.4, 1.8, 0.9),
      [4000, constant(1)],
    );
    const { falls } = run(samples);
    expect(falls).toHaveLength(1);
    expect(falls[0]!.stillnessG).toBeLessThan(0.001);
  });

  it('the phone in a bag on a bumpy ride (vibration, potholes with 120 ms at 0.3 g and 3 g) -> no fall', () => {
    // Potholes pass the free-fall and impact phases; the ride goes on, so there is no stillness.
    const vibration = (s: number) =>
      1 + 0.3 * Math.sin(2 * Math.PI * 3 * s) + 0.15 * Math.sin(2 * Math.PI * 7.3 * s);
    const pothole: Segment[] = [[120, constant(0.3)], steps(3.0, 1.9), [3860, vibration]];
    const ride = Array.from({ length: 8 }, () => pothole).flat();
    expect(run(trace([2000, vibration], ...ride)).falls).toEqual([]);
    // The first pothole alone does get as far as an impact being judged.
    const firstPothole = trace([2000, vibration], [120, constant(0.3)], steps(3.0, 1.9), [
      500,
      vibration,
    ]);
    expect(run(firstPothole).state.impact).not.toBeNull();
  });

  it('a fall after which the worker gets up and walks away -> no fall', () => {
    const samples = trace(
      standing,
      [400, constant(0.25)],
      steps(3.5, 2.0),
      [1500, constant(1)],
      [3000, wave(1.8, 0.3)], // up and walking within the still window
    );
    expect(run(samples).falls).toEqual([]);
  });

  it('a gap in the samples after the impact drops the fall in progress (we did not see stillness)', () => {
    const before = trace(standing, [400, constant(0.25)], steps(3.5, 2.0));
    const last = before[before.length - 1]!.t;
    const after = trace(lyingStill).map((s) => ({ ...s, t: s.t + last + 2000 }));
    expect(run([...before, ...after]).falls).toEqual([]);
  });

  it('skips samples with a missing axis or a time not after the previous one', () => {
    const fall = trace(standing, [400, constant(0.25)], steps(3.5, 2.0), lyingStill);
    const noisy = fall.flatMap((s, i) =>
      i % 10 === 0 ? [s, { ...s, x: Number.NaN }, { ...s, t: s.t - 5, z: 0 }] : [s],
    );
    expect(run(noisy).falls).toHaveLength(1);
  });

  it('keeps constant memory: the state after ten minutes of running is as big as after one stride', () => {
    const strides = Array.from({ length: 1700 }, () => oneStride).flat();
    const short = run(trace(standing, ...oneStride)).state;
    const long = run(trace(standing, ...strides)).state;
    expect(JSON.stringify(long).length).toBeLessThanOrEqual(JSON.stringify(short).length + 200);
    expect(Object.keys(long)).toEqual(Object.keys(FALL_DETECTOR_START));
  });
});
