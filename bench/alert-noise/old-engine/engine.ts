import { applyVerdicts, confirmAlert, type AlertBook } from './lifecycle.js';
import { awakeningRule, NO_SLEEP, type SleepState } from './rules/awakening.rule.js';
import { coreTemperatureRule, type CoreState } from './rules/core-temperature.rule.js';
import { disconnectionRule } from './rules/disconnection.rule.js';
import { heartRateRule } from './rules/heart-rate.rule.js';
import { heatstrokeRule } from './rules/heatstroke.rule.js';
import { nonWearingRule } from './rules/non-wearing.rule.js';
import type { RuleContext, Verdict } from './rules/rule.js';
import { sosFallRule } from './rules/sos-fall.rule.js';
import type { Streak } from './rules/streak.js';
import { sustainedRule } from './rules/sustained.rule.js';
import { usableTimeZone } from './local-time.js';
import { settingsOf } from './settings.js';
import type { EngineInput, StepResult, WearerProfile } from './types.js';
import { UNKNOWN_WEAR, updateWear, type WearState } from './wear.js';

/**
 * The engine's memory of one wearer: plain JSON of constant size (times are ms since the
 * epoch), stored by the runner after every step so a restart resumes exactly here.
 */
export interface EngineState {
  version: 1;
  /** Newest reading processed; readings at or before it are stale. */
  lastReadingAt: number | null;
  wear: WearState;
  alerts: AlertBook;
  /** Run of readings above 85% of max HR (HEART_RATE_ANOMALY_SUSTAINED). */
  sustained: Streak | null;
  /** Run of hot (WBGT >= caution) readings with HR above 180 - age (HEATSTROKE). */
  heat: Streak | null;
  /** ECTemp filter and PSI baselines (ADVANCED_HEATSTROKE[_RISK]). */
  core: CoreState | null;
  sleep: SleepState;
}

export function initialState(): EngineState {
  return {
    version: 1,
    lastReadingAt: null,
    wear: { ...UNKNOWN_WEAR },
    alerts: { open: {}, closed: {} },
    sustained: null,
    heat: null,
    core: null,
    sleep: { ...NO_SLEEP },
  };
}

/** A state as loaded from storage (jsonb): anything missing starts fresh. */
export function normalizeState(raw: unknown): EngineState {
  const base = initialState();
  if (raw === null || typeof raw !== 'object') return base;
  const loaded = raw as Partial<EngineState>;
  // A shallow copy is enough: rules return new slices and never modify the ones they get;
  // only the alert book is updated in place, so it is copied.
  return {
    ...base,
    ...loaded,
    version: 1,
    alerts: { open: { ...loaded.alerts?.open }, closed: { ...loaded.alerts?.closed } },
  };
}

/**
 * One input through every rule. Pure: the result depends only on the arguments (no clock, no
 * I/O), and the given state is not modified.
 */
export function step(
  profile: WearerProfile,
  state: EngineState,
  input: EngineInput,
): StepResult<EngineState> {
  const at = input.at.getTime();
  const next = normalizeState(state);
  if (!Number.isFinite(at)) return { state: next, effects: [] };

  switch (input.kind) {
    case 'confirm':
      return { state: next, effects: confirmAlert(next.alerts, input.alertType, at) };
    case 'reading':
    case 'event':
    case 'tick':
      break;
  }

  const stale = input.kind === 'reading' && next.lastReadingAt !== null && at <= next.lastReadingAt;
  next.wear = updateWear(next.wear, input, stale);
  if (input.kind === 'reading' && !stale) next.lastReadingAt = at;

  const ctx: RuleContext = {
    input,
    at,
    reading: input.kind === 'reading' ? input : null,
    stale,
    worn: next.wear.worn !== false,
    notWornSince: next.wear.notWornSince,
    lastReadingAt: next.lastReadingAt,
    settings: settingsOf(profile),
    dutyCycleMinutes: profile.dutyCycleMinutes > 0 ? profile.dutyCycleMinutes : 1,
    timeZone: usableTimeZone(profile.timeZone),
  };

  const verdicts: Verdict[] = [
    ...sosFallRule(ctx),
    ...nonWearingRule(ctx),
    ...disconnectionRule(ctx),
  ];
  verdicts.push(...heartRateRule(ctx));
  const sustained = sustainedRule(ctx, next.sustained);
  const heat = heatstrokeRule(ctx, next.heat);
  const core = coreTemperatureRule(ctx, next.core);
  const sleep = awakeningRule(ctx, next.sleep);
  next.sustained = sustained.state;
  next.heat = heat.state;
  next.core = core.state;
  next.sleep = sleep.state;
  verdicts.push(...sustained.verdicts, ...heat.verdicts, ...core.verdicts, ...sleep.verdicts);

  return { state: next, effects: applyVerdicts(next.alerts, verdicts, ctx) };
}
