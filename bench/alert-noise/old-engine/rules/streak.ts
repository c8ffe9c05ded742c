import { MINUTE_MS } from './rule.js';

/**
 * A run of consecutive readings that meet a condition. Constant size whatever the window, so
 * the engine state stays small.
 */
export interface Streak {
  start: number;
  last: number;
  count: number;
  min: number;
  max: number;
}

/**
 * Readings further apart than this break a run: one missed measurement is tolerated
 * (two duty cycles), plus a minute of gateway jitter.
 */
export const maxGapMs = (dutyCycleMinutes: number): number =>
  (2 * dutyCycleMinutes + 1) * MINUTE_MS;

/** Adds a reading that meets the condition to the run, or starts a new run after a gap. */
export function extendStreak(
  streak: Streak | null,
  at: number,
  value: number,
  gapMs: number,
): Streak {
  if (!streak || at - streak.last > gapMs)
    return { start: at, last: at, count: 1, min: value, max: value };
  return {
    start: streak.start,
    last: at,
    count: streak.count + 1,
    min: Math.min(streak.min, value),
    max: Math.max(streak.max, value),
  };
}

/**
 * Sustained: the run spans the window, with at least two readings. When the duty cycle is
 * longer than the window, two consecutive readings already span it.
 */
export function isSustained(streak: Streak, windowMinutes: number): boolean {
  return streak.count >= 2 && streak.last - streak.start >= windowMinutes * MINUTE_MS;
}
