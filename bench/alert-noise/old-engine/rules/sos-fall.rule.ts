import { fire, type RuleContext, type Verdict } from './rule.js';

/**
 * SOS_CALL and DETECT_FALL_DOWN: a device event. They never recover on their own: staff confirm
 * them (the engine's lifecycle knows this), and a repeated press while open is the same incident.
 */
export function sosFallRule(ctx: RuleContext): Verdict[] {
  if (ctx.input.kind !== 'event') return [];
  switch (ctx.input.type) {
    case 'SOS':
      return [fire('SOS_CALL', 'sos-button', { event: 'SOS' }, ctx.at, ctx.at)];
    case 'FALL':
      return [fire('DETECT_FALL_DOWN', 'fall-detected', { event: 'FALL' }, ctx.at, ctx.at)];
    case 'WORN':
    case 'REMOVED':
      return [];
  }
}
