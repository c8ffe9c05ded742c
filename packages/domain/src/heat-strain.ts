/**
 * Heat-strain model: estimated core temperature from heart rate (ECTemp) and the
 * Physiological Strain Index.
 *
 * ECTemp is the extended Kalman filter of Buller M.J. et al. (2013), "Estimation of human
 * core temperature from sequential heart rate observations", Physiol. Meas. 34:781-798.
 * One step is one minute. PSI is from Moran D.S. et al. (1998), "A physiological strain
 * index to evaluate heat stress", Am. J. Physiol. 275:R129-R134.
 */

/** Published ECTemp coefficients (Buller 2013). */
export const ECTEMP_MODEL = {
  /** Process noise standard deviation per minute (C). */
  gamma: 0.022,
  /** Observation noise standard deviation (bpm). */
  sigma: 18.88,
  /** Observation HR = a CT^2 + b CT + c. */
  a: -4.5714,
  b: 384.4286,
  c: -7887.1,
  /** Starting core temperature (C) and variance. */
  ct0: 37.1,
  v0: 0,
} as const;

/** The filter's state: core temperature estimate (C) and its variance. */
export interface CoreTemperatureEstimate {
  ct: number;
  v: number;
}

export interface EctempOptions {
  gamma?: number;
  sigma?: number;
}

export const ECTEMP_START: CoreTemperatureEstimate = { ct: ECTEMP_MODEL.ct0, v: ECTEMP_MODEL.v0 };

/** Heart rate the observation model expects at a core temperature. */
export function expectedHeartRate(ct: number): number {
  const { a, b, c } = ECTEMP_MODEL;
  return a * ct * ct + b * ct + c;
}

/**
 * One minute of ECTemp. With a heart rate: predict then update. Without one (a minute with
 * no measurement, e.g. between readings of a longer duty cycle): predict only, so CT stays and
 * the variance grows by gamma^2.
 */
export function ectempStep(
  prev: CoreTemperatureEstimate,
  hr?: number | null,
  opts: EctempOptions = {},
): CoreTemperatureEstimate {
  const gamma = opts.gamma ?? ECTEMP_MODEL.gamma;
  const sigma = opts.sigma ?? ECTEMP_MODEL.sigma;
  // Time update: the state model is CT_t = CT_{t-1}, so only the variance changes.
  const ctPred = prev.ct;
  const vPred = prev.v + gamma * gamma;
  if (hr === undefined || hr === null || !Number.isFinite(hr)) return { ct: ctPred, v: vPred };
  // Observation update, linearised around the prediction (M = dHR/dCT).
  const m = 2 * ECTEMP_MODEL.a * ctPred + ECTEMP_MODEL.b;
  const k = (vPred * m) / (m * m * vPred + sigma * sigma);
  return {
    ct: ctPred + k * (hr - expectedHeartRate(ctPred)),
    v: (1 - k * m) * vPred,
  };
}

/** Several predict-only minutes at once (closed form: CT unchanged, variance + n gamma^2). */
export function ectempPredict(
  prev: CoreTemperatureEstimate,
  minutes: number,
  opts: EctempOptions = {},
): CoreTemperatureEstimate {
  const gamma = opts.gamma ?? ECTEMP_MODEL.gamma;
  const n = Math.max(0, Math.floor(minutes));
  return { ct: prev.ct, v: prev.v + n * gamma * gamma };
}

/**
 * Runs ECTemp over a minute-by-minute heart-rate series (null/undefined = no measurement that
 * minute) and returns the estimate after each minute.
 */
export function estimateCoreTemperature(
  hrSeries: readonly (number | null | undefined)[],
  start: CoreTemperatureEstimate = ECTEMP_START,
  opts: EctempOptions = {},
): CoreTemperatureEstimate[] {
  const out: CoreTemperatureEstimate[] = [];
  let current = start;
  for (const hr of hrSeries) {
    current = ectempStep(current, hr, opts);
    out.push(current);
  }
  return out;
}

/** Moran's PSI (0-10 scale): PSI = 5 (CT - CT0)/(39.5 - CT0) + 5 (HR - HR0)/(180 - HR0). */
export function physiologicalStrainIndex(ct: number, hr: number, ct0: number, hr0: number): number {
  // Baselines at or above the scale's ceilings would divide by zero or flip the sign.
  const ctSpan = Math.max(39.5 - ct0, 0.1);
  const hrSpan = Math.max(180 - hr0, 1);
  return (5 * (ct - ct0)) / ctSpan + (5 * (hr - hr0)) / hrSpan;
}

/**
 * Adaptive Physiological Strain Index (aPSI): Moran's PSI with its critical core temperature
 * adapted by the core-to-skin gradient (Buller M.J., Atkinson E., Driver K. et al. (2023),
 * "Individualized monitoring of heat illness risk: novel adaptive physiological strain index
 * to assess exercise-heat strain from athletes to fully encapsulated workers", Physiol. Meas.
 * 44:10NT01). A small gradient (hot skin) means the blood must carry heat to the skin at a
 * higher cardiovascular cost, so strain is critical at a lower core temperature.
 *
 * The published adaptation coefficients were not available to us (see docs/alert-engine.md).
 * CT_crit is therefore a linear interpolation between anchors each taken from a published
 * source, the interpolation itself being our construction:
 * - gradient >= fullGradient: Moran's critical core temperature, 39.5 C (Moran 1998);
 * - gradient <= 0 (skin as warm as the core): 38.0 C, the occupational core-temperature
 *   limit of the heat-stress standards (ACGIH TLV, ISO 7933);
 * - fullGradient 4 C: the middle of the usual 3-5 C core-to-skin difference.
 */
export const APSI_MODEL = {
  criticalCoreAtFullGradient: 39.5,
  criticalCoreAtNoGradient: 38.0,
  fullGradient: 4,
  /** Moran's critical heart rate. */
  criticalHeartRate: 180,
} as const;

/** CT_crit (C) for a core-to-skin gradient (C): 38.0 at 0 or below, 39.5 at 4 or above, linear between. */
export function criticalCoreTemperature(gradient: number): number {
  const {
    criticalCoreAtFullGradient: high,
    criticalCoreAtNoGradient: low,
    fullGradient,
  } = APSI_MODEL;
  const share = Math.min(Math.max(gradient / fullGradient, 0), 1);
  return low + (high - low) * share;
}

export interface AdaptiveStrain {
  /** The index, on PSI's 0-10 scale (not capped: above 10 is beyond Moran's ceilings). */
  apsi: number;
  /** Core minus skin temperature (C). */
  gradient: number;
  criticalCoreTemperature: number;
}

/**
 * aPSI = 5 (CT - CT0)/(CT_crit(CT - Tsk) - CT0) + 5 (HR - HR0)/(180 - HR0), with CT the
 * core temperature (ECTemp), Tsk the skin temperature and CT0, HR0 the baselines.
 */
export function adaptivePhysiologicalStrainIndex(
  ct: number,
  skinTemperature: number,
  hr: number,
  ct0: number,
  hr0: number,
): AdaptiveStrain {
  const gradient = ct - skinTemperature;
  const critical = criticalCoreTemperature(gradient);
  // As in PSI: a baseline at or above a ceiling must not divide by zero or flip the sign.
  const ctSpan = Math.max(critical - ct0, 0.1);
  const hrSpan = Math.max(APSI_MODEL.criticalHeartRate - hr0, 1);
  const apsi = (5 * (ct - ct0)) / ctSpan + (5 * (hr - hr0)) / hrSpan;
  return { apsi, gradient, criticalCoreTemperature: critical };
}
