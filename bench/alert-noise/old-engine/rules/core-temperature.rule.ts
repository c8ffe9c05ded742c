import {
  adaptivePhysiologicalStrainIndex,
  ECTEMP_START,
  ectempPredict,
  ectempStep,
  physiologicalStrainIndex,
} from '@wearable/domain';
import {
  clear,
  fire,
  MINUTE_MS,
  round,
  type RuleContext,
  type RuleResult,
  type Verdict,
  wornHeartRate,
} from './rule.js';

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
  /** Newest skin temperature read on the wrist (C) and when (absent in states saved before aPSI). */
  skinTemperature?: number | null;
  skinAt?: number | null;
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
    const skin = { skinTemperature: core?.skinTemperature ?? null, skinAt: core?.skinAt ?? null };
    return { ...first, minute, since: at, lastHeartRateAt: at, lowestHeartRate: hr, ...skin };
  }
  // One step a minute: a second reading in the same minute does not step the filter again.
  if (minute <= core.minute) return null;
  const predicted = ectempPredict(core, minute - core.minute - 1);
  const { ct, v } = ectempStep(predicted, hr);
  return {
    ...core,
    ct,
    v,
    minute,
    lastHeartRateAt: at,
    lowestHeartRate: Math.min(core.lowestHeartRate, hr),
  };
}

/** A skin temperature older than this (two duty cycles and a minute) is not used for aPSI. */
function skinMaxAgeMs(ctx: RuleContext): number {
  return (2 * ctx.dutyCycleMinutes + 1) * MINUTE_MS;
}

/** The reading's skin temperature when it was taken on the wrist. */
function wornSkinTemperature(ctx: RuleContext): number | undefined {
  if (!ctx.reading || !ctx.worn || ctx.stale) return undefined;
  const t = ctx.reading.skinTemperature;
  return t !== undefined && Number.isFinite(t) ? t : undefined;
}

/**
 * ADVANCED_HEATSTROKE_RISK and ADVANCED_HEATSTROKE, evaluated on each worn heart rate, by the
 * wearer's heat-strain model: the adaptive PSI (default) or ECTemp with PSI. Both recover when
 * the index falls back below its threshold.
 */
export function coreTemperatureRule(
  ctx: RuleContext,
  core: CoreState | null,
): RuleResult<CoreState | null> {
  const skin = wornSkinTemperature(ctx);
  const withSkin =
    core && skin !== undefined ? { ...core, skinTemperature: skin, skinAt: ctx.at } : core;
  const hr = wornHeartRate(ctx);
  if (hr === undefined || ctx.stale) return { state: withSkin, verdicts: [] };
  const stepped = advanceCore(withSkin, ctx.at, hr);
  if (!stepped) return { state: withSkin, verdicts: [] };
  const next = skin !== undefined ? { ...stepped, skinTemperature: skin, skinAt: ctx.at } : stepped;

  const hr0 = Math.min(next.lowestHeartRate, PSI_BASELINE_HEART_RATE_CAP);
  const ct0 = PSI_BASELINE_CORE_TEMPERATURE;
  const base = {
    coreTemperature: round(next.ct),
    heartRate: hr,
    baselineCoreTemperature: ct0,
    baselineHeartRate: hr0,
    minutesEstimated: next.minute - Math.floor(next.since / MINUTE_MS) + 1,
  };
  const model = ctx.settings.heatStrainModel;
  switch (model) {
    case 'APSI': {
      const fresh = next.skinAt != null && ctx.at - next.skinAt <= skinMaxAgeMs(ctx);
      if (fresh && next.skinTemperature != null) {
        return { state: next, verdicts: apsiVerdicts(ctx, next, next.skinTemperature, base) };
      }
      // No recent skin temperature (a bracelet that does not report it): monitoring must not
      // stop, so this reading is judged on ECTemp and PSI, and the cause says so.
      return {
        state: next,
        verdicts: ectempVerdicts(ctx, next, { ...base, skinTemperature: null }),
      };
    }
    case 'ECTEMP':
      return { state: next, verdicts: ectempVerdicts(ctx, next, base) };
    default: {
      const unknown: never = model;
      throw new Error(`unknown heat-strain model ${String(unknown)}`);
    }
  }
}

type BaseValues = Record<string, number | null> & {
  baselineCoreTemperature: number;
  baselineHeartRate: number;
  heartRate: number;
};

function apsiVerdicts(
  ctx: RuleContext,
  core: CoreState,
  skin: number,
  base: BaseValues,
): Verdict[] {
  const { apsiRisk, apsiCritical } = ctx.settings.thresholds;
  const strain = adaptivePhysiologicalStrainIndex(
    core.ct,
    skin,
    base.heartRate,
    base.baselineCoreTemperature,
    base.baselineHeartRate,
  );
  const values = {
    ...base,
    skinTemperature: skin,
    gradient: round(strain.gradient),
    criticalCoreTemperature: round(strain.criticalCoreTemperature),
    apsi: round(strain.apsi, 2),
  };
  const verdict = (type: 'ADVANCED_HEATSTROKE_RISK' | 'ADVANCED_HEATSTROKE', threshold: number) =>
    strain.apsi >= threshold
      ? fire(type, 'apsi', { ...values, threshold }, core.since, ctx.at)
      : clear(type);
  return [
    verdict('ADVANCED_HEATSTROKE_RISK', apsiRisk),
    verdict('ADVANCED_HEATSTROKE', apsiCritical),
  ];
}

function ectempVerdicts(ctx: RuleContext, core: CoreState, base: BaseValues): Verdict[] {
  const { coreTempRisk, coreTempCritical, psiCritical } = ctx.settings.thresholds;
  const psi = physiologicalStrainIndex(
    core.ct,
    base.heartRate,
    base.baselineCoreTemperature,
    base.baselineHeartRate,
  );
  const values = { ...base, psi: round(psi, 2) };
  const verdicts: Verdict[] = [
    core.ct >= coreTempRisk
      ? fire(
          'ADVANCED_HEATSTROKE_RISK',
          'ectemp',
          { ...values, threshold: coreTempRisk },
          core.since,
          ctx.at,
        )
      : clear('ADVANCED_HEATSTROKE_RISK'),
  ];
  if (core.ct >= coreTempCritical) {
    verdicts.push(
      fire(
        'ADVANCED_HEATSTROKE',
        'ectemp',
        { ...values, threshold: coreTempCritical },
        core.since,
        ctx.at,
      ),
    );
  } else if (psi >= psiCritical) {
    verdicts.push(
      fire('ADVANCED_HEATSTROKE', 'psi', { ...values, threshold: psiCritical }, core.since, ctx.at),
    );
  } else {
    verdicts.push(clear('ADVANCED_HEATSTROKE'));
  }
  return verdicts;
}
