import { HEART_RATE_DUTY_CYCLES, type HeartRateDutyCycle, maxHeartRate } from '@wearable/domain';
import { createRng, deriveSeed } from './prng.js';

/** How a wearer's day goes: shift work on a hot site, or a care-home resident mostly resting. */
export type ActivityPattern = 'site-worker' | 'care-resident';

/** Who wears a bracelet, as far as the model needs; drawn from the seed unless given. */
export interface WearerProfile {
  serialNumber: string;
  gatewayId: string;
  pattern: ActivityPattern;
  age: number;
  maxHeartRate: number;
  restingHeartRate: number;
  /** 0 (unfit) .. 1 (athletic): a fit wearer's heart rate rises less for the same work. */
  fitness: number;
  dutyCycleMinutes: HeartRateDutyCycle;
  /** When in its duty cycle this bracelet reports, seconds: spreads readings over time. */
  phaseSeconds: number;
  /** Local minute of day the wearer falls asleep / wakes up. */
  bedtimeMinute: number;
  wakeMinute: number;
  /** Care residents bathe every other day; which days depends on this parity. */
  bathParity: 0 | 1;
}

export interface WearerInput {
  serialNumber: string;
  gatewayId: string;
  pattern: ActivityPattern;
  /** Known age (from the wearer's birth date); otherwise drawn. */
  age?: number | null;
  dutyCycleMinutes?: number;
}

function asDutyCycle(minutes: number | undefined): HeartRateDutyCycle {
  return HEART_RATE_DUTY_CYCLES.find((d) => d === minutes) ?? 1;
}

export function buildWearerProfile(seed: number, input: WearerInput): WearerProfile {
  const rng = createRng(deriveSeed(seed, 'profile', input.serialNumber));
  const worker = input.pattern === 'site-worker';
  const age = input.age ?? (worker ? rng.int(20, 62) : rng.int(70, 94));
  const fitness = worker ? rng.range(0.3, 0.9) : rng.range(0.05, 0.4);
  const restingHeartRate = Math.round(
    (worker ? 72 : 76) - fitness * 14 + rng.normal() * 3 + (worker ? 0 : 2),
  );
  const dutyCycleMinutes = asDutyCycle(input.dutyCycleMinutes);
  return {
    serialNumber: input.serialNumber,
    gatewayId: input.gatewayId,
    pattern: input.pattern,
    age,
    maxHeartRate: maxHeartRate(age),
    restingHeartRate,
    fitness,
    dutyCycleMinutes,
    phaseSeconds: rng.int(0, dutyCycleMinutes * 60 - 1),
    bedtimeMinute: worker ? rng.int(22 * 60, 23 * 60 + 30) : rng.int(20 * 60 + 30, 21 * 60 + 30),
    wakeMinute: worker ? rng.int(5 * 60 + 15, 6 * 60) : rng.int(5 * 60 + 45, 6 * 60 + 45),
    bathParity: rng.chance(0.5) ? 0 : 1,
  };
}

/** Target activity (0 rest .. 1 hard work) by time of day, before noise and events. */
export function plannedActivity(
  profile: WearerProfile,
  minuteOfDay: number,
  weekday: number,
  jitter: number,
): number {
  const h = minuteOfDay / 60;
  const within = (from: number, to: number) => h >= from && h < to;
  if (profile.pattern === 'site-worker') {
    const workday = weekday >= 1 && weekday <= 6;
    if (!workday) return within(9, 18) ? 0.2 + 0.1 * jitter : 0.1;
    if (within(6, 7.5)) return 0.15;
    if (within(7.5, 8) || within(17, 18)) return 0.35;
    if (within(8, 17)) {
      // Breaks: 10:00-10:15, lunch 12:00-13:00, 15:00-15:15.
      if (within(10, 10.25) || within(12, 13) || within(15, 15.25)) return 0.1;
      return 0.45 + 0.3 * jitter;
    }
    return 0.12;
  }
  if (within(7.5, 8) || within(12, 12.5) || within(17.5, 18)) return 0.18;
  if (within(10, 10.5)) return 0.3;
  if (within(14, 14.5) && weekday % 2 === 1) return 0.25;
  return 0.06 + 0.04 * jitter;
}

/** True when the wearer is in bed by the plan (the window wraps midnight). */
export function inSleepWindow(profile: WearerProfile, minuteOfDay: number): boolean {
  return minuteOfDay >= profile.bedtimeMinute || minuteOfDay < profile.wakeMinute;
}

/** Planned off-wrist times: a worker charges in the evening; a resident's bath. */
export function plannedOffWrist(
  profile: WearerProfile,
  minuteOfDay: number,
  dayNumber: number,
  battery: number,
): 'charging' | 'bath' | null {
  const h = minuteOfDay / 60;
  if (profile.pattern === 'site-worker') {
    return h >= 20 && h < 21 && battery < 65 ? 'charging' : null;
  }
  if (dayNumber % 2 === profile.bathParity && h >= 15 && h < 15 + 35 / 60) return 'bath';
  return null;
}
