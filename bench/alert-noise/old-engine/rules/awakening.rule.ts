import { isWithinDailyWindow } from '../local-time.js';
import { clear, fire, MINUTE_MS, round, type RuleContext, type RuleResult } from './rule.js';

export interface SleepState {
  /** Last reading with a sleep stage 1-3 inside the current sleep window. */
  sleptAt: number | null;
  /** First awake (stage 4) reading of the current bout after sleep. */
  awakeSince: number | null;
}

export const NO_SLEEP: SleepState = { sleptAt: null, awakeSince: null };

/** Sleep seen longer ago than this does not belong to the current night. */
const SAME_NIGHT_MS = 12 * 60 * MINUTE_MS;
const AWAKE = 4;

/**
 * AWAKENING_ALERT: inside the sleep window, an awake bout (stage 4) lasting awakeMinutes after
 * stages 1-3 were seen. Recovers on sleep again, or on a reading outside the sleep window.
 */
export function awakeningRule(ctx: RuleContext, sleep: SleepState): RuleResult<SleepState> {
  const stage = ctx.reading?.sleepStage;
  if (!ctx.reading || ctx.stale || !ctx.worn) return { state: sleep, verdicts: [] };
  // Daytime readings without a stage need no time-zone arithmetic.
  if (stage === undefined && sleep.sleptAt === null && sleep.awakeSince === null) {
    return { state: sleep, verdicts: [] };
  }
  const { start, end } = ctx.settings.sleepWindow;
  if (!isWithinDailyWindow(ctx.at, ctx.timeZone, start, end)) {
    return { state: NO_SLEEP, verdicts: [clear('AWAKENING_ALERT')] };
  }
  if (stage === undefined) return { state: sleep, verdicts: [] };
  if (stage !== AWAKE)
    return { state: { sleptAt: ctx.at, awakeSince: null }, verdicts: [clear('AWAKENING_ALERT')] };
  if (sleep.sleptAt === null || ctx.at - sleep.sleptAt > SAME_NIGHT_MS)
    return { state: NO_SLEEP, verdicts: [] };

  const awakeSince = sleep.awakeSince ?? ctx.at;
  const state = { sleptAt: sleep.sleptAt, awakeSince };
  const { awakeMinutes } = ctx.settings.thresholds;
  if (ctx.at - awakeSince < awakeMinutes * MINUTE_MS) return { state, verdicts: [] };
  return {
    state,
    verdicts: [
      fire(
        'AWAKENING_ALERT',
        'awake-after-sleep-in-sleep-window',
        {
          awakeMinutes: round((ctx.at - awakeSince) / MINUTE_MS, 1),
          threshold: awakeMinutes,
          sleepStage: AWAKE,
          lastAsleepAt: new Date(sleep.sleptAt).toISOString(),
          sleepWindow: `${start}-${end}`,
        },
        awakeSince,
        ctx.at,
      ),
    ],
  };
}
