import { type MotionSample, isUsableSample, magnitudeG } from './motion.js';

/**
 * Man-down: no movement of the phone for N minutes while the worker is monitoring. Movement is
 * a sample whose magnitude is off 1 g by more than `movementG` (any step, any shake) or a turn
 * of the phone by more than `tiltDegrees` since the last movement (a slow roll keeps the
 * magnitude at 1 g). Values are ours (docs/phone-gateway.md). Constant memory.
 */
export interface ManDownSettings {
  /** Minutes without movement before man-down is raised (the organisation's N). */
  stillMinutes: number;
  movementG: number;
  tiltDegrees: number;
  /** A longer gap between samples restarts the count: we did not watch the phone then (ms). */
  maxGapMs: number;
}

export const MAN_DOWN_DEFAULTS: Omit<ManDownSettings, 'stillMinutes'> = {
  movementG: 0.1,
  tiltDegrees: 10,
  maxGapMs: 5000,
};

export interface ManDownState {
  lastT: number | null;
  /** Time of the last movement (or of the start of monitoring, or of the end of a gap). */
  stillSince: number;
  /** The phone's gravity direction at the last movement. */
  reference: { x: number; y: number; z: number } | null;
  /** Raised once per still period; movement re-arms it. */
  raised: boolean;
}

/** A detector for monitoring that starts at `startedAt` (ms, the samples' clock). */
export function startManDown(startedAt: number): ManDownState {
  return { lastT: null, stillSince: startedAt, reference: null, raised: false };
}

export interface ManDownStep {
  state: ManDownState;
  /** Set on the sample that completes N still minutes; the page starts its countdown. */
  manDown: { stillSince: number; detectedAt: number; minutes: number } | null;
}

/** Feeds one sample (unusable or out-of-order samples are skipped). */
export function stepManDown(
  state: ManDownState,
  sample: MotionSample,
  settings: ManDownSettings,
): ManDownStep {
  if (!isUsableSample(sample) || (state.lastT !== null && sample.t <= state.lastT)) {
    return { state, manDown: null };
  }
  const { t, x, y, z } = sample;
  const gap = t - (state.lastT ?? state.stillSince) > settings.maxGapMs;
  const moved =
    gap ||
    Math.abs(magnitudeG(sample) - 1) > settings.movementG ||
    (state.reference !== null && angleDegrees(state.reference, sample) > settings.tiltDegrees);
  if (moved || state.reference === null) {
    // The first still sample only sets the reference: the still period began with monitoring.
    return {
      state: {
        lastT: t,
        stillSince: moved ? t : state.stillSince,
        reference: { x, y, z },
        raised: false,
      },
      manDown: null,
    };
  }
  const raise = !state.raised && t - state.stillSince >= settings.stillMinutes * 60_000;
  return {
    state: { ...state, lastT: t, raised: state.raised || raise },
    manDown: raise
      ? { stillSince: state.stillSince, detectedAt: t, minutes: settings.stillMinutes }
      : null,
  };
}

function angleDegrees(
  a: { x: number; y: number; z: number },
  b: { x: number; y: number; z: number },
) {
  const norms = Math.hypot(a.x, a.y, a.z) * Math.hypot(b.x, b.y, b.z);
  if (norms === 0) return 0;
  const cos = (a.x * b.x + a.y * b.y + a.z * b.z) / norms;
  return (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
}
