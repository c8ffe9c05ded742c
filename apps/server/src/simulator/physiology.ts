import type { SleepStageCode, StressLevel } from '@wearable/domain';
import type { Rng } from './prng.js';
import {
  inSleepWindow,
  plannedActivity,
  plannedOffWrist,
  type WearerProfile,
} from './wearer-profile.js';

/** What the model remembers of a wearer from one minute to the next (mutable, for speed). */
export interface WearerState {
  activity: number;
  heartRate: number;
  skinTemperature: number;
  /** 0..1: accumulated heat strain (hot environment x exertion). */
  heatStrain: number;
  /** 0..1: acute stress (an SOS, a fall) decaying. */
  acuteStress: number;
  battery: number;
  worn: boolean;
  /** Minute the current sleep began, or null when awake. */
  sleepStart: number | null;
  sleepCycleMinutes: number;
  /** Minutes left of an awake bout during the night. */
  awakeLeft: number;
  /** Steps counted since the last reading was sent. */
  steps: number;
  /** Scripted or random episodes, as epoch minutes (null = none). */
  heat: { from: number; until: number } | null;
  highHeartRate: { until: number; level: number } | null;
  /** A worker not coping: strain climbs from `from` (heat strain and heart rate) until `until`. */
  strain: { from: number; until: number } | null;
  fallAt: number | null;
  removedUntil: number | null;
  /** Out of the gateway's reach: measured but never heard (the model keeps running). */
  outOfRangeUntil: number | null;
  /** True until the first minute is stepped. */
  fresh: boolean;
}

/** One minute's measured values. */
export interface MinuteSample {
  heartRate: number;
  skinTemperature: number;
  sleepStage: SleepStageCode | undefined;
  stressLevel: StressLevel;
  worn: boolean;
  /** Wear transitions this minute, sent as REMOVED / WORN device events. */
  wearChange: 'REMOVED' | 'WORN' | null;
}

export interface MinuteContext {
  minute: number;
  minuteOfDay: number;
  weekday: number;
  dayNumber: number;
  /** Current WBGT and air temperature at the wearer's gateway. */
  wbgt: number;
  temperature: number;
}

export function initialWearerState(profile: WearerProfile, rng: Rng): WearerState {
  return {
    activity: 0.1,
    heartRate: profile.restingHeartRate,
    skinTemperature: 33,
    heatStrain: 0,
    acuteStress: 0,
    battery: rng.range(55, 100),
    worn: true,
    sleepStart: null,
    sleepCycleMinutes: 90,
    awakeLeft: 0,
    steps: 0,
    heat: null,
    highHeartRate: null,
    strain: null,
    fallAt: null,
    removedUntil: null,
    outOfRangeUntil: null,
    fresh: true,
  };
}

/** Heart-rate offset by sleep stage code (deep sleep lowest, awake highest). */
const SLEEP_HR_OFFSET: Record<SleepStageCode, number> = { 1: -4, 2: 0, 3: 4, 4: 8 };

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** Advances a wearer by one minute and returns what the bracelet would measure. */
export function stepWearer(
  p: WearerProfile,
  s: WearerState,
  c: MinuteContext,
  rng: Rng,
): MinuteSample {
  // Wear state: planned off-wrist times (charging, bath) and removals by events.
  const offWrist = plannedOffWrist(p, c.minuteOfDay, c.dayNumber, s.battery);
  if (s.removedUntil !== null && c.minute >= s.removedUntil) s.removedUntil = null;
  if (s.outOfRangeUntil !== null && c.minute >= s.outOfRangeUntil) s.outOfRangeUntil = null;
  if (s.strain !== null && c.minute >= s.strain.until) s.strain = null;
  const worn = offWrist === null && s.removedUntil === null;
  const wearChange = worn === s.worn || s.fresh ? null : worn ? 'WORN' : 'REMOVED';
  s.worn = worn;

  // Battery: drains slowly (less at longer duty cycles), charges during the charging time.
  const charging = offWrist !== null && (offWrist === 'charging' || s.battery < 70);
  const drain = 0.012 * (p.dutyCycleMinutes === 1 ? 1 : 0.5 + 0.5 / p.dutyCycleMinutes);
  s.battery = clamp(s.battery + (charging ? 1.2 : -drain), 1, 100);

  // Sleep: begins at bedtime while worn, ends at the wake-up time.
  const bedtime = inSleepWindow(p, c.minuteOfDay);
  if (bedtime && s.sleepStart === null && worn) {
    // A simulation that starts at night finds its wearers already asleep since bedtime.
    s.sleepStart = s.fresh
      ? c.minute - ((c.minuteOfDay - p.bedtimeMinute + 1440) % 1440)
      : c.minute;
    s.sleepCycleMinutes = rng.int(82, 100);
  } else if (!bedtime) s.sleepStart = null;
  const sleepStage = s.sleepStart === null ? undefined : sleepStageAt(p, s, c.minute, rng);
  s.fresh = false;

  // Activity follows the day's plan with noise; episodes override it.
  let target =
    sleepStage === undefined ? plannedActivity(p, c.minuteOfDay, c.weekday, rng.next()) : 0;
  if (s.heat) target = Math.max(target, 0.75);
  const strain = s.strain && sleepStage === undefined ? strainProgress(s.strain, c.minute) : null;
  if (strain !== null) target = Math.max(target, 0.7);
  if (s.fallAt !== null && c.minute - s.fallAt < 10) target = 0.02;
  if (!worn) target = Math.min(target, 0.15);
  s.activity = clamp(s.activity + (target - s.activity) * 0.35 + rng.normal() * 0.04, 0, 1);

  // Heat strain: load from WBGT above 25 C times exertion, recovering at rest.
  const load = (Math.max(0, c.wbgt - 25) / 8) * s.activity;
  s.heatStrain = clamp(s.heatStrain + 0.02 * load - 0.05 * s.heatStrain, 0, 1);
  if (s.heat) {
    const progress = clamp(
      (c.minute - s.heat.from) / Math.max(1, s.heat.until - s.heat.from),
      0,
      1,
    );
    s.heatStrain = Math.max(s.heatStrain, 0.3 + 0.7 * progress);
    if (c.minute >= s.heat.until) s.heat = null;
  }
  if (strain !== null) s.heatStrain = Math.max(s.heatStrain, 0.2 + 0.8 * strain);
  s.acuteStress *= 0.85;

  // Heart rate: resting + exertion (less for the fit) + heat strain, with noise.
  const reserve = p.maxHeartRate - p.restingHeartRate;
  const exertion = s.activity * reserve * (0.7 - 0.3 * p.fitness);
  let hrTarget =
    sleepStage === undefined
      ? p.restingHeartRate + exertion + s.heatStrain * 0.35 * reserve + s.acuteStress * 20
      : p.restingHeartRate - 7 + SLEEP_HR_OFFSET[sleepStage];
  const coping =
    !s.heat && !s.highHeartRate && strain === null && s.fallAt === null && s.acuteStress < 0.05;
  // A worker who copes paces themselves: slows down before the heart rate stays high.
  if (coping) hrTarget = Math.min(hrTarget, paceLimit(p));
  if (strain !== null) hrTarget = Math.max(hrTarget, p.maxHeartRate * (0.7 + 0.22 * strain));
  if (s.highHeartRate) {
    hrTarget = Math.max(hrTarget, p.maxHeartRate * s.highHeartRate.level);
    if (c.minute >= s.highHeartRate.until) s.highHeartRate = null;
  }
  s.heartRate += (hrTarget - s.heartRate) * 0.5 + rng.normal() * 2.2;
  let ceiling = p.maxHeartRate;
  if (s.fallAt !== null) {
    const since = c.minute - s.fallAt;
    // The shock of a fall: a spike that decays over a few minutes.
    if (since >= 0 && since < 8) {
      s.heartRate = Math.max(s.heartRate, p.restingHeartRate + 45 * Math.exp(-since / 3));
      ceiling += 10;
    } else if (since >= 8) s.fallAt = null;
  }
  s.heartRate = clamp(s.heartRate, 38, Math.min(250, ceiling));

  // Skin temperature: warmer with ambient heat, exertion and heat strain; warm in bed.
  const skinTarget = !worn
    ? c.temperature
    : sleepStage !== undefined
      ? 34.6
      : 32.4 + (c.temperature - 25) * 0.15 + s.activity * 0.8 + s.heatStrain * 2.2;
  s.skinTemperature += (skinTarget - s.skinTemperature) * 0.3 + rng.normal() * 0.05;
  s.skinTemperature = clamp(s.skinTemperature, 25, 45);

  if (worn && sleepStage === undefined) {
    const pace = p.pattern === 'site-worker' ? 100 : 60;
    s.steps +=
      s.activity < 0.1 ? rng.int(0, 2) : Math.round(s.activity * pace * rng.range(0.8, 1.2));
  }

  return {
    heartRate: Math.round(s.heartRate),
    skinTemperature: Math.round(s.skinTemperature * 10) / 10,
    sleepStage,
    stressLevel: stressLevel(p, s, exertion, sleepStage, rng),
    worn,
    wearChange,
  };
}

/** How far a worker's strain has climbed: 0 when it begins, 1 after 75 minutes. */
function strainProgress(strain: { from: number }, minute: number): number {
  return clamp((minute - strain.from) / 75, 0, 1);
}

/**
 * The heart rate a coping worker does not work above: below 80 % of the maximum and below
 * 172 - age, safely under the engine's sustained (85 %) and heat (180 - age) lines.
 */
export function paceLimit(p: WearerProfile): number {
  return Math.min(0.8 * p.maxHeartRate, 172 - p.age);
}

/** ~90-minute cycles: light, deep (less in later cycles), light, restless, a brief awakening. */
function sleepStageAt(p: WearerProfile, s: WearerState, minute: number, rng: Rng): SleepStageCode {
  const asleepFor = minute - (s.sleepStart ?? minute);
  if (asleepFor < 8) return 4;
  if (s.awakeLeft > 0) {
    s.awakeLeft--;
    return 4;
  }
  const inSleep = asleepFor - 8;
  const cycle = Math.floor(inSleep / s.sleepCycleMinutes);
  const position = (inSleep % s.sleepCycleMinutes) / s.sleepCycleMinutes;
  if (inSleep % s.sleepCycleMinutes === 0 && cycle > 0) {
    // A cycle boundary: usually a brief awakening, now and then a long one (older wearers).
    const long = rng.chance(p.pattern === 'care-resident' ? 0.05 : 0.01);
    if (long || rng.chance(0.35)) {
      s.awakeLeft = long ? rng.int(6, 12) : rng.int(1, 3);
      return 4;
    }
  }
  const deep = Math.max(0.08, 0.4 - 0.08 * cycle);
  if (position < 0.1) return 2;
  if (position < 0.1 + deep) return 1;
  if (position < 0.85) return 2;
  return 3;
}

/**
 * Stress from a heart-rate-variability proxy: the part of the heart rate that exertion does
 * not explain (heat, shock, an anomaly), plus heat strain and acute stress.
 */
function stressLevel(
  p: WearerProfile,
  s: WearerState,
  exertion: number,
  sleepStage: SleepStageCode | undefined,
  rng: Rng,
): StressLevel {
  const reserve = p.maxHeartRate - p.restingHeartRate;
  const unexplained = (s.heartRate - p.restingHeartRate - exertion) / reserve;
  const score = unexplained + 0.3 * s.heatStrain + s.acuteStress + rng.normal() * 0.04;
  if (sleepStage !== undefined) return score > 0.15 ? 'LOW' : 'NONE';
  if (score < 0.05) return 'NONE';
  if (score < 0.12) return 'LOW';
  if (score < 0.22) return 'MEDIUM';
  if (score < 0.35) return 'HIGH';
  return 'OVERLOAD';
}
