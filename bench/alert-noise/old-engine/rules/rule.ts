import type { AlertType, ResolvedAlertSettings } from '@wearable/domain';
import type { AlertCause, EngineInput } from '../types.js';

type ReadingInput = Extract<EngineInput, { kind: 'reading' }>;

/** What every rule sees for one input: the input, the wearer's settings and the wear status after it. */
export interface RuleContext {
  input: EngineInput;
  /** input.at in ms since the epoch. */
  at: number;
  /** The input when it is a reading, else null. */
  reading: ReadingInput | null;
  /**
   * A reading no newer than one already processed (a gateway batch slightly out of order).
   * Windows, filters and recoveries ignore it: the state describes the newest moment.
   */
  stale: boolean;
  /** False only when the bracelet is known to be off the wrist (worn=false or REMOVED). */
  worn: boolean;
  /** Since when the bracelet has been off the wrist, or null. */
  notWornSince: number | null;
  /** Newest reading processed, after this input (ms), or null if none yet. */
  lastReadingAt: number | null;
  settings: ResolvedAlertSettings;
  dutyCycleMinutes: number;
  timeZone: string;
}

/** A rule's finding for one alert type: the condition holds (with why) or has cleared. */
export type Verdict =
  | { kind: 'fire'; alertType: AlertType; cause: AlertCause }
  | { kind: 'clear'; alertType: AlertType };

export interface RuleResult<S> {
  state: S;
  verdicts: Verdict[];
}

export const MINUTE_MS = 60_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** Rounds for display in a cause without hiding what crossed the threshold. */
export const round = (value: number, digits = 3): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

export function fire(
  alertType: AlertType,
  rule: string,
  values: AlertCause['values'],
  windowStart: number,
  windowEnd: number,
): Verdict {
  return {
    kind: 'fire',
    alertType,
    cause: { rule, values, windowStart: iso(windowStart), windowEnd: iso(windowEnd) },
  };
}

export const clear = (alertType: AlertType): Verdict => ({ kind: 'clear', alertType });

/** The heart rate of a reading taken on the wrist, if any (off-wrist heart rates are noise). */
export function wornHeartRate(ctx: RuleContext): number | undefined {
  if (!ctx.reading || !ctx.worn) return undefined;
  const hr = ctx.reading.heartRate;
  return hr !== undefined && Number.isFinite(hr) ? hr : undefined;
}
