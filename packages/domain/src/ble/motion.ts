/**
 * Accelerometer samples as the phone's `devicemotion` events give them:
 * `event.accelerationIncludingGravity` (m/s^2, gravity included) and `event.timeStamp` (ms).
 * At rest the magnitude is 1 g whatever the phone's orientation.
 */
export interface MotionSample {
  /** Milliseconds, increasing (`event.timeStamp` or `performance.now()`). */
  t: number;
  x: number;
  y: number;
  z: number;
}

/** Standard gravity (m/s^2), to express magnitudes in g. */
export const STANDARD_GRAVITY = 9.80665;

/** The sample's magnitude in g; NaN when an axis is missing (some devices send null axes). */
export function magnitudeG(sample: MotionSample): number {
  const { x, y, z } = sample;
  return Math.sqrt(x * x + y * y + z * z) / STANDARD_GRAVITY;
}

/** True when every field is a finite number (a sample the detectors can use). */
export function isUsableSample(sample: MotionSample): boolean {
  return (
    Number.isFinite(sample.t) &&
    Number.isFinite(sample.x) &&
    Number.isFinite(sample.y) &&
    Number.isFinite(sample.z)
  );
}
