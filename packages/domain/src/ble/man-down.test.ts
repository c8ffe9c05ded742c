/**
 * Man-down on synthetic traces at 10 Hz (the detector is rate-independent; fewer samples keep
 * the minutes-long traces fast). N = 2 minutes here; the organisation chooses N.
 */
import { describe, expect, it } from 'vitest';
import { MAN_DOWN_DEFAULTS, type ManDownState, startManDown, stepManDown } from './man-down.js';
import { type MotionSample, STANDARD_GRAVITY } from './motion.js';

const DT = 100;
const settings = { ...MAN_DOWN_DEFAULTS, stillMinutes: 2 };
const G = STANDARD_GRAVITY;

/** `ms` of samples from `from`, the phone's gravity vector at each time given by `at`. */
function span(
  from: number,
  ms: number,
  at: (t: number) => [number, number, number],
): MotionSample[] {
  const samples: MotionSample[] = [];
  for (let t = from; t < from + ms; t += DT) {
    const [x, y, z] = at(t);
    samples.push({ t, x, y, z });
  }
  return samples;
}

/** Lying flat with sensor noise of 0.01 g. */
const still = (from: number, ms: number) =>
  span(from, ms, (t) => [0.01 * G * Math.sin(t / 70), 0, G * (1 + 0.01 * Math.sin(t / 130))]);
/** Walking: 0.3 g swings at about 2 steps a second. */
const walking = (from: number, ms: number) =>
  span(from, ms, (t) => [0, 0, G * (1 + 0.3 * Math.sin((2 * Math.PI * 1.8 * t) / 1000))]);

function run(samples: MotionSample[], start: ManDownState = startManDown(0)) {
  const raised: { stillSince: number; detectedAt: number; minutes: number }[] = [];
  let state = start;
  for (const sample of samples) {
    const step = stepManDown(state, sample, settings);
    state = step.state;
    if (step.manDown) raised.push(step.manDown);
  }
  return raised;
}

const MIN = 60_000;

describe('man-down', () => {
  it('raises once after N minutes without movement, counted from the start of monitoring', () => {
    // Monitoring starts at 0 and the phone lies still for 5 minutes: raised at 2:00, only once.
    expect(run(still(0, 5 * MIN))).toEqual([{ stillSince: 0, detectedAt: 2 * MIN, minutes: 2 }]);
  });

  it('does not raise while the worker walks', () => {
    expect(run(walking(0, 5 * MIN))).toEqual([]);
  });

  it('movement resets the count: still 1.5 min, a few steps, then still -> raised 2 min after the steps', () => {
    const samples = [
      ...still(0, 1.5 * MIN),
      ...walking(1.5 * MIN, 3000),
      ...still(1.5 * MIN + 3000, 3 * MIN),
    ];
    const raised = run(samples);
    expect(raised).toHaveLength(1);
    // The last walking sample is the last movement.
    const lastStep = 1.5 * MIN + 3000 - DT;
    expect(raised[0]!.stillSince).toBeGreaterThan(1.5 * MIN);
    expect(raised[0]!.stillSince).toBeLessThanOrEqual(lastStep);
    expect(raised[0]!.detectedAt - raised[0]!.stillSince).toBeGreaterThanOrEqual(2 * MIN);
    expect(raised[0]!.detectedAt - raised[0]!.stillSince).toBeLessThan(2 * MIN + DT);
  });

  it('a slow turn of the phone (no jolt, the magnitude stays 1 g) is movement', () => {
    // 1.5 min flat, then a 30 degree roll over 10 s, then still again for 1.5 min: never 2 still minutes.
    const roll = span(1.5 * MIN, 10_000, (t) => {
      const angle = ((((t - 1.5 * MIN) / 10_000) * 30) / 180) * Math.PI;
      return [G * Math.sin(angle), 0, G * Math.cos(angle)];
    });
    const tilted = span(1.5 * MIN + 10_000, 1.5 * MIN, () => {
      const angle = Math.PI / 6;
      return [G * Math.sin(angle), 0, G * Math.cos(angle)];
    });
    expect(run([...still(0, 1.5 * MIN), ...roll, ...tilted])).toEqual([]);
  });

  it('after being raised, movement re-arms it: a second still period raises again', () => {
    const samples = [
      ...still(0, 3 * MIN),
      ...walking(3 * MIN, 5000),
      ...still(3 * MIN + 5000, 3 * MIN),
    ];
    const raised = run(samples);
    expect(raised).toHaveLength(2);
    expect(raised[0]!.detectedAt).toBe(2 * MIN);
    expect(raised[1]!.stillSince).toBeGreaterThan(3 * MIN);
  });

  it('a gap in the samples (the page was not watching) restarts the count', () => {
    // Still 1.5 min, no samples for 1 min, still 1.5 min: neither side reaches 2 minutes.
    expect(run([...still(0, 1.5 * MIN), ...still(2.5 * MIN, 1.5 * MIN)])).toEqual([]);
  });

  it('skips samples with a missing axis', () => {
    const samples = still(0, 3 * MIN).map((s, i) => (i % 7 === 0 ? { ...s, y: Number.NaN } : s));
    expect(run(samples)).toHaveLength(1);
  });
});
