import { type MotionSample, STANDARD_GRAVITY } from '../ble/motion.js';

/**
 * Synthetic accelerometer traces for the fall detector's tests and for the phone app's browser
 * tests (dispatched as `devicemotion` events). Ours, shaped after the published descriptions of
 * falls and daily activities (docs/phone-gateway.md), not recordings.
 */

/** A stretch of trace: its length (ms) and the magnitude (g) over its own time (s). */
export type MotionSegment = [ms: number, g: (s: number) => number];

/** Samples at `hz` along the z axis, t from 0 (ms). The detectors read only the magnitude. */
export function motionTrace(segments: MotionSegment[], hz = 50): MotionSample[] {
  const dt = 1000 / hz;
  const samples: MotionSample[] = [];
  let t = 0;
  for (const [ms, g] of segments) {
    for (let local = 0; local < ms; local += dt, t += dt) {
      samples.push({ t, x: 0, y: 0, z: g(local / 1000) * STANDARD_GRAVITY });
    }
  }
  return samples;
}

export const constantG =
  (g: number) =>
  (_s: number): number =>
    g;
export const waveG =
  (hz: number, amplitude: number, mean = 1) =>
  (s: number): number =>
    mean + amplitude * Math.sin(2 * Math.PI * hz * s);
/** One value per 20 ms sample (50 Hz traces). */
export function stepsG(...values: number[]): MotionSegment {
  return [values.length * 20, (s) => values[Math.min(Math.round(s * 50), values.length - 1)]!];
}
const repeat = (times: number, segments: MotionSegment[]) =>
  Array.from({ length: times }, () => segments).flat();

export const STANDING: MotionSegment = [2000, waveG(1.5, 0.02)]; // body sway
export const LYING_STILL: MotionSegment = [5000, waveG(0.25, 0.03)]; // breathing
export const ONE_STRIDE: MotionSegment[] = [
  [120, constantG(0.15)], // flight: both feet off the ground
  stepsG(3.2, 2.6), // foot strike
  [200, constantG(1.3)], // stance
];
const WALKING: MotionSegment = [2000, waveG(1.8, 0.3)];
const bumpyRide = (s: number) =>
  1 + 0.3 * Math.sin(2 * Math.PI * 3 * s) + 0.15 * Math.sin(2 * Math.PI * 7.3 * s);

/** The traces, each with what the detector must say and why. */
export const MOTION_SCENARIOS: Record<
  string,
  { segments: MotionSegment[]; fall: boolean; why: string }
> = {
  fall: {
    segments: [
      STANDING,
      [400, constantG(0.25)],
      stepsG(2.0, 3.5, 2.2),
      [300, waveG(5, 0.6)],
      LYING_STILL,
    ],
    fall: true,
    why: '400 ms at 0.25 g, a 3.5 g impact, a bounce, then lying still',
  },
  sittingDownHard: {
    segments: [STANDING, [500, constantG(0.75)], stepsG(1.6, 2.2, 1.5), [5000, waveG(0.25, 0.02)]],
    fall: false,
    why: 'a controlled lowering never drops below 0.6 g and the 2.2 g bump is no impact',
  },
  ploppingIntoAChair: {
    segments: [STANDING, stepsG(0.5, 0.5, 0.5), stepsG(3.0, 1.4), [5000, waveG(0.25, 0.02)]],
    fall: false,
    why: '60 ms at 0.5 g is too short a drop, though 3 g is an impact',
  },
  running: {
    segments: [STANDING, ...repeat(30, ONE_STRIDE)],
    fall: false,
    why: 'every stride is a free fall and an impact, and the strides after it are not stillness',
  },
  runningThenWalkingThenStanding: {
    segments: [STANDING, ...repeat(10, ONE_STRIDE), WALKING, [5000, waveG(1.5, 0.02)]],
    fall: false,
    why: 'the walk after the last stride falls in the stillness window',
  },
  runningThatStopsDead: {
    segments: [STANDING, ...repeat(10, ONE_STRIDE), [5000, waveG(1.5, 0.02)]],
    fall: true,
    why: 'all three phases: an accepted false alarm the worker cancels with one tap',
  },
  tripAtTheEndOfARun: {
    segments: [
      STANDING,
      ...repeat(6, ONE_STRIDE),
      [400, constantG(0.3)],
      stepsG(3.8, 2.0),
      LYING_STILL,
    ],
    fall: true,
    why: 'a fall that starts while running is still seen',
  },
  phoneDroppedOnATable: {
    segments: [
      [1000, waveG(8, 0.05)],
      [250, constantG(0.02)],
      stepsG(6.0, 0.4, 1.8, 0.9),
      [4000, constantG(1)],
    ],
    fall: true,
    why: 'free fall, impact and stillness with no person: reported; the 30 s countdown settles it',
  },
  phoneInABagOnABumpyRide: {
    segments: [
      [2000, bumpyRide],
      ...repeat(8, [[120, constantG(0.3)], stepsG(3.0, 1.9), [3860, bumpyRide]]),
    ],
    fall: false,
    why: 'potholes pass free fall and impact, but the ride goes on: no stillness',
  },
  fallThenGettingUp: {
    segments: [
      STANDING,
      [400, constantG(0.25)],
      stepsG(3.5, 2.0),
      [1500, constantG(1)],
      [3000, waveG(1.8, 0.3)],
    ],
    fall: false,
    why: 'up and walking within the stillness window',
  },
};
