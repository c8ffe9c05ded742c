import { clear, fire, type RuleContext, type Verdict, wornHeartRate } from './rule.js';

/** HEART_RATE: one worn reading below the lower bound or above the upper bound. */
export function heartRateRule(ctx: RuleContext): Verdict[] {
  const hr = wornHeartRate(ctx);
  if (hr === undefined) return [];
  const { heartRateLower: lowerBound, heartRateUpper: upperBound } = ctx.settings;
  if (hr < lowerBound || hr > upperBound) {
    // A late reading is still a real measurement: it may open, but never closes.
    return [
      fire(
        'HEART_RATE',
        hr < lowerBound ? 'heart-rate-below-lower-bound' : 'heart-rate-above-upper-bound',
        { heartRate: hr, lowerBound, upperBound },
        ctx.at,
        ctx.at,
      ),
    ];
  }
  return ctx.stale ? [] : [clear('HEART_RATE')];
}
