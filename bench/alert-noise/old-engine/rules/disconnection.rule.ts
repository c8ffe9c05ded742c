import { DISCONNECTION_MIN_MINUTES } from '@wearable/domain';
import { clear, fire, MINUTE_MS, round, type RuleContext, type Verdict } from './rule.js';

/** Minutes without a reading before DISCONNECTION: max(cycles x duty cycle, 10). */
export const disconnectionLimitMinutes = (ctx: RuleContext): number =>
  Math.max(
    ctx.settings.thresholds.disconnectionCycles * ctx.dutyCycleMinutes,
    DISCONNECTION_MIN_MINUTES,
  );

/**
 * DISCONNECTION: detected on ticks (time passing with no data); recovers on the next reading.
 * A bracelet that never sent a reading is not "disconnected": it was never connected.
 */
export function disconnectionRule(ctx: RuleContext): Verdict[] {
  switch (ctx.input.kind) {
    case 'reading':
      return ctx.stale ? [] : [clear('DISCONNECTION')];
    case 'tick': {
      if (ctx.lastReadingAt === null) return [];
      const limit = disconnectionLimitMinutes(ctx);
      const silent = ctx.at - ctx.lastReadingAt;
      if (silent < limit * MINUTE_MS) return [];
      return [
        fire(
          'DISCONNECTION',
          'no-reading',
          {
            minutesWithoutReading: round(silent / MINUTE_MS, 1),
            limitMinutes: limit,
            dutyCycleMinutes: ctx.dutyCycleMinutes,
          },
          ctx.lastReadingAt,
          ctx.at,
        ),
      ];
    }
    case 'event':
    case 'confirm':
      return [];
  }
}
