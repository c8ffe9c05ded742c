import { clear, fire, MINUTE_MS, round, type RuleContext, type Verdict } from './rule.js';

/**
 * NON_WEARING: off the wrist (worn=false or a REMOVED event) for nonWearingMinutes, checked on
 * every reading, event and tick; recovers when the bracelet is worn again.
 */
export function nonWearingRule(ctx: RuleContext): Verdict[] {
  if (ctx.worn) return [clear('NON_WEARING')];
  if (ctx.notWornSince === null) return [];
  const limit = ctx.settings.thresholds.nonWearingMinutes;
  const off = ctx.at - ctx.notWornSince;
  if (off < limit * MINUTE_MS) return [];
  return [
    fire(
      'NON_WEARING',
      'not-worn',
      { notWornMinutes: round(off / MINUTE_MS, 1), limitMinutes: limit },
      ctx.notWornSince,
      ctx.at,
    ),
  ];
}
