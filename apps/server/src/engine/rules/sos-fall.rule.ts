import { fire, MINUTE_MS, type RuleContext, type Verdict } from './rule.js';

/**
 * SOS_CALL and DETECT_FALL_DOWN: a device event. They never recover on their own: staff confirm
 * them (the engine's lifecycle knows this), and a repeated press while open is the same incident.
 * A FALL sent for man-down (its cause `{ trigger: 'man-down', stillMinutes }`) is the same alert
 * with the rule 'man-down', so the console and the notices say "no movement for N min".
 */
export function sosFallRule(ctx: RuleContext): Verdict[] {
  if (ctx.input.kind !== 'event') return [];
  switch (ctx.input.type) {
    case 'SOS':
      return [fire('SOS_CALL', 'sos-button', { event: 'SOS' }, ctx.at, ctx.at)];
    case 'FALL': {
      // Man-down (no movement for N minutes) is a FALL with its own cause text; the window it
      // names is the still period. An impact, or a FALL that does not say, is 'fall-detected'.
      const cause = ctx.input.cause;
      if (cause?.trigger === 'man-down' && cause.stillMinutes !== undefined)
        return [
          fire(
            'DETECT_FALL_DOWN',
            'man-down',
            { event: 'FALL', trigger: 'man-down', stillMinutes: cause.stillMinutes },
            ctx.at - cause.stillMinutes * MINUTE_MS,
            ctx.at,
          ),
        ];
      const values: Record<string, string> = { event: 'FALL' };
      if (cause) values.trigger = cause.trigger;
      return [fire('DETECT_FALL_DOWN', 'fall-detected', values, ctx.at, ctx.at)];
    }
    case 'WORN':
    case 'REMOVED':
      return [];
  }
}
