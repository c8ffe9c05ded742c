import {
  ECTEMP_START,
  ectempPredict,
  ectempStep,
  physiologicalStrainIndex,
} from '@wearable/domain';
import { clear, fire, MINUTE_MS, round, type RuleContext, type RuleResult, type Verdict, wornHeartRate } from './rule.js';

/**
 * ECTemp filter state plus the PSI baselines. `minute` is the epoch minute of the last filter
 * step: the filter steps once a minute and predicts over the minutes without a heart rate.
 */
export interface CoreState {
  ct: number;
  v: number;
  minute: number;
  /** When this estimation session started (first worn heart rate after a long gap). */
  since: number;
  lastHeartRateAt: number;
  /** Lowest worn heart rate of the session: the resting baseline HR0 for PSI. */
  lowestHeartRate: number;
}

/** After this long without a worn heart rate the estimate restarts from 37.1 C. */
export const CORE_SESSION_GAP_MS = 120 * MINUTE_MS;
/** HR0 never above this, so a session that starts mid-effort does not hide strain. */
export const PSI_BASELINE_HEART_RATE_CAP = 90;
/** CT0 for PSI: ECTemp's own starting point, the resting core temperature it assumes. */
export const PSI_BASELINE_CORE_TEMPERATURE = ECTEMP_START.ct;

/** Advances ECTemp to this reading's minute; returns null when the reading cannot step it. */
export function advanceCore(core: CoreState | null, at: number, hr: number): CoreState | null {
  const minute = Math.floor(at / MINUTE_MS);
  if (!core || at - core.lastHeartRateAt > CORE_SESSION_GAP_MS) {
    const first = ectempStep(ECTEMP_START, hr);
    return { ...first, minute, since: at, lastHeartRateAt: at, lowestHeartRate: hr };
  }
  // One step a minute: a second reading in the same minute does not step the filter again.
  if (minute <= core.minute) return null;
  const predicted = ectempPredict(core, minute - core.minute - 1);
  const { ct, v } = ectempStep(predicted, hr);
  return {
    ct,
    v,
    minute,
    since: core.since,
    lastHeartRateAt: at,
    lowestHeartRate: Math.min(core.lowestHeartRate, hr),
  };
}

/**
 * ADVANCED_HEATSTROKE_RISK (ECTemp >= coreTempRisk) and ADVANCED_HEATSTROKE (ECTemp >=
 * coreTempCritical, or PSI >= psiCritical). Evaluated on each worn heart rate; both recover
 * when the estimate (and PSI) fall back below their thresholds.
 */
export function coreTemperatureRule(ctx: RuleContext, core: CoreState | null): RuleResult<CoreState | null> {
  const hr = wornHeartRate(ctx);
  if (hr === undefined || ctx.stale) return { state: core, verdicts: [] };
  const next = advanceCore(core, ctx.at, hr);
  if (!next) return { state: core, verdicts: [] };

  const { coreTempRisk, coreTempCritical, psiCritical } = ctx.settings.thresholds;
  const hr0 = Math.min(next.lowestHeartRate, PSI_BASELINE_HEART_RATE_CAP);
  const ct0 = PSI_BASELINE_CORE_TEMPERATURE;
  const psi = physiologicalStrainIndex(next.ct, hr, ct0, hr0);
  const values = {
    coreTemperature: round(next.ct),
    psi: round(psi, 2),
    heartRate: hr,
    baselineCoreTemperature: ct0,
    baselineHeartRate: hr0,
    minutesEstimated: next.minute - Math.floor(next.since / MINUTE_MS) + 1,
  };
  const verdicts: Verdict[] = [];
  verdicts.push(
    next.ct >= coreTempRisk
      ? fire('ADVANCED_HEATSTROKE_RISK', 'ectemp', { ...values, threshold: coreTempRisk }, next.since, ctx.at)
      : clear('ADVANCED_HEATSTROKE_RISK'),
  );
  if (next.ct >= coreTempCritical) {
    verdicts.push(
      fire('ADVANCED_HEATSTROKE', 'ectemp', { ...values, threshold: coreTempCritical }, next.since, ctx.at),
    );
  } else if (psi >= psiCritical) {
    verdicts.push(fire('ADVANCED_HEATSTROKE', 'psi', { ...values, threshold: psiCritical }, next.since, ctx.at));
  } else {
    verdicts.push(clear('ADVANCED_HEATSTROKE'));
  }
  return { state: next, verdicts };
}
