import { z } from 'zod';
import { ALERT_TYPES, type AlertType } from './alerts.js';
import { HEART_RATE_LOWER_BOUND, HEART_RATE_UPPER_BOUND, maxHeartRate } from './heart-rate.js';
import { DEFAULT_SCHEDULE, weeklySchedule } from './schedules.js';

/** Age the engine assumes when a wearer's birth date is unknown. */
export const DEFAULT_AGE = 40;

const int = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);
const num = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);
const hhmm = (field: string) =>
  z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${field} must be HH:MM (00:00-23:59)`);

const enabledShape = Object.fromEntries(
  ALERT_TYPES.map((t) => [t, z.boolean({ error: `enabled.${t} must be true or false` })]),
) as Record<AlertType, z.ZodBoolean>;

const thresholdsShape = {
  /** WBGT (C) at or above which HEATSTROKE fires on its own. */
  wbgtHigh: num('thresholds.wbgtHigh', 20, 40),
  /** WBGT (C) at or above which HEATSTROKE fires with a sustained high heart rate (> 180 - age). */
  wbgtCaution: num('thresholds.wbgtCaution', 20, 40),
  /** Estimated core temperature (C) for ADVANCED_HEATSTROKE_RISK. */
  coreTempRisk: num('thresholds.coreTempRisk', 37.5, 40),
  /** Estimated core temperature (C) for ADVANCED_HEATSTROKE. */
  coreTempCritical: num('thresholds.coreTempCritical', 37.5, 41),
  /** Physiological Strain Index for ADVANCED_HEATSTROKE (model ECTEMP). */
  psiCritical: num('thresholds.psiCritical', 1, 10),
  /** Adaptive PSI for ADVANCED_HEATSTROKE_RISK (model APSI). */
  apsiRisk: num('thresholds.apsiRisk', 1, 10),
  /** Adaptive PSI for ADVANCED_HEATSTROKE (model APSI). */
  apsiCritical: num('thresholds.apsiCritical', 1, 10),
  /** Minutes awake after sleep, inside the sleep window, for AWAKENING_ALERT. */
  awakeMinutes: int('thresholds.awakeMinutes', 1, 120),
  /** Minutes not worn for NON_WEARING. */
  nonWearingMinutes: int('thresholds.nonWearingMinutes', 1, 240),
  /** Duty cycles without a reading for DISCONNECTION (never less than 10 minutes). */
  disconnectionCycles: int('thresholds.disconnectionCycles', 1, 100),
};

export const DEFAULT_ALERT_THRESHOLDS = {
  wbgtHigh: 31,
  wbgtCaution: 28,
  coreTempRisk: 38.0,
  coreTempCritical: 38.5,
  psiCritical: 7,
  // Moran's strain categories: 7-8 "high", 9-10 "very high" (Buller 2023 reads aPSI the same way).
  apsiRisk: 7,
  apsiCritical: 9,
  awakeMinutes: 5,
  nonWearingMinutes: 5,
  disconnectionCycles: 3,
};

/** DISCONNECTION never fires before this many minutes without data, whatever the duty cycle. */
export const DISCONNECTION_MIN_MINUTES = 10;

/**
 * What ADVANCED_HEATSTROKE_RISK and ADVANCED_HEATSTROKE run on: the adaptive PSI (core
 * temperature and skin temperature, default) or the estimated core temperature alone with PSI
 * (the model before 2026-11; kept so a site can compare with the backtest).
 */
export const HEAT_STRAIN_MODELS = ['APSI', 'ECTEMP'] as const;
export type HeatStrainModel = (typeof HEAT_STRAIN_MODELS)[number];
const heatStrainModel = z.enum(HEAT_STRAIN_MODELS, {
  error: `heatStrainModel must be one of ${HEAT_STRAIN_MODELS.join(', ')}`,
});

const fields = {
  heartRateLower: int('heartRateLower', HEART_RATE_LOWER_BOUND, HEART_RATE_UPPER_BOUND - 1),
  /** null = the wearer's maximum heart rate (208 - 0.7 x age). */
  heartRateUpper: int('heartRateUpper', HEART_RATE_LOWER_BOUND, HEART_RATE_UPPER_BOUND).nullable(),
  sustainedMinutes: int('sustainedMinutes', 1, 120),
  enabled: z.object(enabledShape),
  schedule: weeklySchedule,
  sleepWindow: z.object({ start: hhmm('sleepWindow.start'), end: hhmm('sleepWindow.end') }),
  cooldownMinutes: int('cooldownMinutes', 0, 1440),
  heatStrainModel,
  thresholds: z.object(thresholdsShape),
};

type Checkable = {
  heartRateLower?: number;
  heartRateUpper?: number | null;
  thresholds?: Partial<Record<keyof typeof thresholdsShape, number>>;
};

/** Pairs of thresholds where the first must not exceed the second. */
const ORDERED_THRESHOLDS = [
  ['wbgtCaution', 'wbgtHigh'],
  ['coreTempRisk', 'coreTempCritical'],
  ['apsiRisk', 'apsiCritical'],
] as const;

/** Cross-field rules, shared by the full schema and the PATCH schema. */
function checkConsistency(s: Checkable, ctx: z.RefinementCtx): void {
  const { heartRateLower: lower, heartRateUpper: upper, thresholds: t } = s;
  if (lower !== undefined && upper !== undefined && upper !== null && upper <= lower) {
    ctx.addIssue({
      code: 'custom',
      path: ['heartRateUpper'],
      message: 'heartRateUpper must be greater than heartRateLower',
    });
  }
  for (const [low, high] of ORDERED_THRESHOLDS) {
    const a = t?.[low];
    const b = t?.[high];
    if (a !== undefined && b !== undefined && a > b) {
      ctx.addIssue({
        code: 'custom',
        path: ['thresholds', low],
        message: `thresholds.${low} must not exceed thresholds.${high}`,
      });
    }
  }
}

const DEFAULTS = {
  heartRateLower: HEART_RATE_LOWER_BOUND,
  sustainedMinutes: 8,
  sleepWindow: { start: '22:00', end: '06:00' },
  cooldownMinutes: 10,
  heatStrainModel: 'APSI' as HeatStrainModel,
};

/**
 * A wearer's alert settings. Every field is optional on input and takes its default, so
 * `alertSettings.parse({})` is DEFAULT_ALERT_SETTINGS and a stored partial object is completed.
 * Unknown keys are refused (a typo must not be silently ignored).
 */
export const alertSettings = z
  .strictObject({
    heartRateLower: fields.heartRateLower.default(DEFAULTS.heartRateLower),
    heartRateUpper: fields.heartRateUpper.default(null),
    sustainedMinutes: fields.sustainedMinutes.default(DEFAULTS.sustainedMinutes),
    enabled: z
      .strictObject(
        Object.fromEntries(ALERT_TYPES.map((t) => [t, enabledShape[t].default(true)])) as Record<
          AlertType,
          z.ZodDefault<z.ZodBoolean>
        >,
      )
      .prefault({}),
    schedule: fields.schedule.prefault(DEFAULT_SCHEDULE),
    sleepWindow: fields.sleepWindow.prefault(DEFAULTS.sleepWindow),
    cooldownMinutes: fields.cooldownMinutes.default(DEFAULTS.cooldownMinutes),
    heatStrainModel: fields.heatStrainModel.default(DEFAULTS.heatStrainModel),
    thresholds: z
      .strictObject(
        Object.fromEntries(
          Object.entries(thresholdsShape).map(([k, s]) => [
            k,
            s.default(DEFAULT_ALERT_THRESHOLDS[k as keyof typeof DEFAULT_ALERT_THRESHOLDS]),
          ]),
        ) as { [K in keyof typeof thresholdsShape]: z.ZodDefault<(typeof thresholdsShape)[K]> },
      )
      .prefault({}),
  })
  .superRefine(checkConsistency);
export type AlertSettings = z.output<typeof alertSettings>;
export type AlertSettingsInput = z.input<typeof alertSettings>;
export type AlertThresholds = AlertSettings['thresholds'];

/** Defaults (PRODUCT.md, alert engine): bounds 40..max HR, 8-minute window, every type on, all-week schedule. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = alertSettings.parse({});

/**
 * A PATCH body: any subset of the fields (nested `enabled`, `thresholds` and `sleepWindow`
 * may be partial too); nothing defaulted, so absent fields keep their stored value. Merge it
 * with mergeAlertSettings, which re-checks the cross-field rules on the result.
 */
export const alertSettingsPatch = z
  .strictObject({
    heartRateLower: fields.heartRateLower.optional(),
    heartRateUpper: fields.heartRateUpper.optional(),
    sustainedMinutes: fields.sustainedMinutes.optional(),
    enabled: fields.enabled.strict().partial().optional(),
    schedule: fields.schedule.optional(),
    sleepWindow: fields.sleepWindow.strict().partial().optional(),
    cooldownMinutes: fields.cooldownMinutes.optional(),
    heatStrainModel: fields.heatStrainModel.optional(),
    thresholds: fields.thresholds.strict().partial().optional(),
  })
  .superRefine(checkConsistency);
export type AlertSettingsPatch = z.output<typeof alertSettingsPatch>;

/** Applies a validated PATCH to stored settings; throws a ZodError naming the field if the result is inconsistent. */
export function mergeAlertSettings(
  stored: AlertSettings,
  patch: AlertSettingsPatch,
): AlertSettings {
  return alertSettings.parse({
    ...stored,
    ...patch,
    enabled: { ...stored.enabled, ...patch.enabled },
    sleepWindow: { ...stored.sleepWindow, ...patch.sleepWindow },
    thresholds: { ...stored.thresholds, ...patch.thresholds },
  });
}

/** Settings with the wearer-dependent values worked out, as the engine uses them. */
export interface ResolvedAlertSettings extends Omit<AlertSettings, 'heartRateUpper'> {
  heartRateUpper: number;
  /** The wearer's maximum heart rate, 208 - 0.7 x age (age 40 when unknown). */
  maxHeartRate: number;
  age: number;
}

/**
 * Completes partial settings with the defaults and resolves the upper heart-rate bound for the
 * wearer's age. Throws a ZodError naming the field on bad values.
 */
export function resolveAlertSettings(
  partial: AlertSettingsInput | undefined,
  age: number | null,
): ResolvedAlertSettings {
  const settings = alertSettings.parse(partial ?? {});
  const wearerAge = age ?? DEFAULT_AGE;
  const max = maxHeartRate(wearerAge);
  // With the upper bound left to the age formula, an old wearer's maximum can fall to or below a
  // high lower bound; keep a one-beat band so the two bounds never contradict each other.
  const upper = settings.heartRateUpper ?? Math.max(max, settings.heartRateLower + 1);
  return { ...settings, heartRateUpper: upper, maxHeartRate: max, age: wearerAge };
}
