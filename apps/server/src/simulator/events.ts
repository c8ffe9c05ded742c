import type { WearerState } from './physiology.js';
import type { Rng } from './prng.js';

/** Things that happen now and then, at random (rate configurable) or scripted. */
export const SIM_EVENT_KINDS = [
  'sos',
  'fall',
  'removed',
  'gateway-silent',
  'heat-episode',
  'high-heart-rate',
  'strain',
  'out-of-range',
] as const;
export type SimEventKind = (typeof SIM_EVENT_KINDS)[number];

/** How often each kind is picked relative to the others. */
const WEIGHTS: Record<SimEventKind, number> = {
  sos: 2,
  fall: 2,
  removed: 2,
  // A silent gateway darkens all its wearers at once: rarer than the rest.
  'gateway-silent': 0.3,
  'heat-episode': 2,
  'high-heart-rate': 2,
  // Scripted only (a shift plan, the CLI, tests): a random pick would make the demo noisy.
  strain: 0,
  'out-of-range': 0,
};

/** Duration drawn for each kind, minutes (0: instantaneous). */
const DURATIONS: Record<SimEventKind, [number, number]> = {
  sos: [0, 0],
  fall: [0, 0],
  removed: [8, 25],
  'gateway-silent': [12, 20],
  'heat-episode': [20, 40],
  'high-heart-rate': [10, 16],
  strain: [90, 180],
  'out-of-range': [20, 45],
};

/** A notable event as logged (one line each) and reported to the caller. */
export interface SimEventRecord {
  kind: SimEventKind;
  at: string;
  gatewayId: string;
  serialNumber?: string;
  durationMinutes: number;
}

export function drawDuration(kind: SimEventKind, rng: Rng): number {
  const [min, max] = DURATIONS[kind];
  return rng.int(min, max);
}

export function pickEventKind(rng: Rng, allowHeat: boolean): SimEventKind {
  const kinds = SIM_EVENT_KINDS.filter((k) => allowHeat || k !== 'heat-episode');
  const total = kinds.reduce((sum, k) => sum + WEIGHTS[k], 0);
  let roll = rng.next() * total;
  for (const kind of kinds) {
    roll -= WEIGHTS[kind];
    if (roll < 0) return kind;
  }
  return 'sos';
}

/**
 * True when a wearer may have this event now: worn and not already in an episode; exertion
 * episodes only while awake (an SOS, a fall or a removal may come at night too).
 */
export function eligibleForEvent(kind: SimEventKind, s: WearerState): boolean {
  const needsAwake = kind === 'heat-episode' || kind === 'high-heart-rate' || kind === 'strain';
  return (
    s.worn &&
    (!needsAwake || s.sleepStart === null) &&
    s.heat === null &&
    s.highHeartRate === null &&
    s.strain === null &&
    s.fallAt === null &&
    s.removedUntil === null &&
    s.outOfRangeUntil === null
  );
}

/**
 * Applies a wearer event to the model state. Returns the device event the bracelet sends
 * (SOS, FALL), if any; removal and put-back show up as wear changes of the model.
 */
export function applyWearerEvent(
  kind: Exclude<SimEventKind, 'gateway-silent'>,
  s: WearerState,
  minute: number,
  durationMinutes: number,
  rng: Rng,
): 'SOS' | 'FALL' | null {
  switch (kind) {
    case 'sos':
      s.acuteStress = 0.6;
      return 'SOS';
    case 'fall':
      s.fallAt = minute;
      s.acuteStress = 0.5;
      return 'FALL';
    case 'removed':
      s.removedUntil = minute + durationMinutes;
      return null;
    case 'heat-episode':
      s.heat = { from: minute, until: minute + durationMinutes };
      return null;
    case 'high-heart-rate':
      s.highHeartRate = { until: minute + durationMinutes, level: rng.range(0.88, 0.95) };
      return null;
    case 'strain':
      s.strain = { from: minute, until: minute + durationMinutes };
      return null;
    case 'out-of-range':
      s.outOfRangeUntil = minute + durationMinutes;
      return null;
  }
}
