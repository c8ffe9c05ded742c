import { clear, fire, round, type RuleContext, type RuleResult, wornHeartRate } from './rule.js';
import { extendStreak, isSustained, maxGapMs, type Streak } from './streak.js';

/** Share of the wearer's maximum heart rate that counts as anomalous when sustained. */
export const SUSTAINED_SHARE_OF_MAX = 0.85;

/**
 * HEART_RATE_ANOMALY_SUSTAINED: heart rate above 85% of the wearer's maximum in every reading
 * for sustainedMinutes (at least two consecutive readings). A reading at or below recovers.
 */
export function sustainedRule(ctx: RuleContext, streak: Streak | null): RuleResult<Streak | null> {
  // Off the wrist nothing is measured: the run is broken, whatever the input.
  if (!ctx.worn) return { state: null, verdicts: [] };
  if (!ctx.reading || ctx.stale) return { state: streak, verdicts: [] };
  const hr = wornHeartRate(ctx);
  if (hr === undefined) return { state: streak, verdicts: [] };
  const { maxHeartRate, sustainedMinutes } = ctx.settings;
  const threshold = SUSTAINED_SHARE_OF_MAX * maxHeartRate;
  if (hr <= threshold) return { state: null, verdicts: [clear('HEART_RATE_ANOMALY_SUSTAINED')] };

  const next = extendStreak(streak, ctx.at, hr, maxGapMs(ctx.dutyCycleMinutes));
  if (!isSustained(next, sustainedMinutes)) return { state: next, verdicts: [] };
  return {
    state: next,
    verdicts: [
      fire(
        'HEART_RATE_ANOMALY_SUSTAINED',
        'heart-rate-above-85pct-max-sustained',
        {
          heartRate: hr,
          threshold: round(threshold, 1),
          maxHeartRate,
          lowestHeartRate: next.min,
          readings: next.count,
          minutes: round((next.last - next.start) / 60_000, 1),
          sustainedMinutes,
        },
        next.start,
        next.last,
      ),
    ],
  };
}
