import {
  clear,
  fire,
  hold,
  round,
  type RuleContext,
  type RuleResult,
  wornHeartRate,
} from './rule.js';
import { extendStreak, isSustained, maxGapMs, type Streak } from './streak.js';

/**
 * HEATSTROKE, the person's own strain in a hot place: WBGT at or above wbgtCaution (28 C) while
 * the heart rate stays above 180 - age for the sustained window. A hot and strained reading
 * before that holds it; a reading with WBGT below caution or the heart rate at or below the
 * limit is clear (either half is enough). A reading missing the other half says nothing.
 * WBGT alone no longer opens it (`wbgtHigh` is accepted and unused): the environment is the
 * site's heat level, not a personal alert.
 */
export function heatstrokeRule(ctx: RuleContext, streak: Streak | null): RuleResult<Streak | null> {
  if (!ctx.worn) return { state: null, verdicts: [] };
  if (!ctx.reading || ctx.stale) return { state: streak, verdicts: [] };
  const raw = ctx.reading.wbgt;
  const wbgt = raw !== undefined && Number.isFinite(raw) ? raw : undefined;
  const hr = wornHeartRate(ctx);
  const { wbgtCaution } = ctx.settings.thresholds;
  const heartRateLimit = 180 - ctx.settings.age;

  if ((wbgt !== undefined && wbgt < wbgtCaution) || (hr !== undefined && hr <= heartRateLimit)) {
    return { state: null, verdicts: [clear('HEATSTROKE')] };
  }
  if (wbgt === undefined || hr === undefined) return { state: streak, verdicts: [] };

  const next = extendStreak(streak, ctx.at, hr, maxGapMs(ctx.dutyCycleMinutes));
  if (!isSustained(next, ctx.settings.sustainedMinutes)) {
    return { state: next, verdicts: [hold('HEATSTROKE')] };
  }
  return {
    state: next,
    verdicts: [
      fire(
        'HEATSTROKE',
        'wbgt-caution-with-heart-rate-sustained',
        {
          wbgt,
          wbgtThreshold: wbgtCaution,
          heartRate: hr,
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
