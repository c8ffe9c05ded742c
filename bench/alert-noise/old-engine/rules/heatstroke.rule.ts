import { clear, fire, round, type RuleContext, type RuleResult, wornHeartRate } from './rule.js';
import { extendStreak, isSustained, maxGapMs, type Streak } from './streak.js';

/**
 * HEATSTROKE: WBGT at or above wbgtHigh (31 C) on its own, or at or above wbgtCaution (28 C)
 * while the heart rate stays above 180 - age for the sustained window. It recovers on a
 * reading whose WBGT is below wbgtHigh once the hot-and-strained run is broken.
 * Readings without a WBGT say nothing about the environment and change nothing.
 */
export function heatstrokeRule(ctx: RuleContext, streak: Streak | null): RuleResult<Streak | null> {
  if (!ctx.worn) return { state: null, verdicts: [] };
  const wbgt = ctx.reading?.wbgt;
  if (!ctx.reading || ctx.stale || wbgt === undefined || !Number.isFinite(wbgt)) {
    return { state: streak, verdicts: [] };
  }
  const { wbgtHigh, wbgtCaution } = ctx.settings.thresholds;
  const heartRateLimit = 180 - ctx.settings.age;
  const hr = wornHeartRate(ctx);

  let next = streak;
  if (hr !== undefined) {
    next =
      wbgt >= wbgtCaution && hr > heartRateLimit
        ? extendStreak(streak, ctx.at, hr, maxGapMs(ctx.dutyCycleMinutes))
        : null;
  } else if (wbgt < wbgtCaution) {
    next = null;
  }

  if (wbgt >= wbgtHigh) {
    return {
      state: next,
      verdicts: [fire('HEATSTROKE', 'wbgt-high', { wbgt, threshold: wbgtHigh }, ctx.at, ctx.at)],
    };
  }
  if (next && isSustained(next, ctx.settings.sustainedMinutes)) {
    return {
      state: next,
      verdicts: [
        fire(
          'HEATSTROKE',
          'wbgt-caution-with-heart-rate-sustained',
          {
            wbgt,
            wbgtThreshold: wbgtCaution,
            heartRate: hr ?? null,
            heartRateLimit,
            lowestHeartRate: next.min,
            readings: next.count,
            minutes: round((next.last - next.start) / 60_000, 1),
            sustainedMinutes: ctx.settings.sustainedMinutes,
          },
          next.start,
          next.last,
        ),
      ],
    };
  }
  return { state: next, verdicts: [clear('HEATSTROKE')] };
}
