import { clear, fire, hold, MINUTE_MS, round, type RuleContext, type Verdict } from './rule.js';

/**
 * NON_WEARING: off the wrist (worn=false or a REMOVED event) for nonWearingMinutes, checked on
 * every reading, event and tick; off the wrist for less holds it. Clear: a reading or a WORN
 * event while worn. A tick, an SOS or a fall is no evidence that it is on the wrist.
 */
export function nonWearingRule(ctx: RuleContext): Verdict[] {
  if (ctx.worn) return saysWorn(ctx) ? [clear('NON_WEARING')] : [];
  if (ctx.notWornSince === null) return [];
  const limit = ctx.settings.thresholds.nonWearingMinutes;
  const off = ctx.at - ctx.notWornSince;
  if (off < limit * MINUTE_MS) return [hold('NON_WEARING')];
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

function saysWorn(ctx: RuleContext): boolean {
  switch (ctx.input.kind) {
    case 'reading':
      return true;
    case 'event':
      return ctx.input.type === 'WORN';
    case 'tick':
    case 'confirm':
      return false;
  }
}
