import { type MotionSample, isUsableSample, magnitudeG } from './motion.js';

/**
 * Fall detection on the phone's accelerometer: a free fall (the magnitude well below 1 g for a
 * while), then within a short time an impact (a peak well above 1 g), then stillness. The three
 * phases are those of the threshold detectors of Kangas et al. (2008) and Bourke et al. (2010)
 * on body-worn accelerometers and of PerFallD (Dai et al. 2010) on phones; the impact value
 * and the 1 s + 2 s judgement after it follow Bourke 2010. docs/phone-gateway.md gives the
 * sources and says which values are ours.
 *
 * Streaming and constant memory: the state is a fixed handful of numbers whatever the length
 * of the trace, so the page can feed it every `devicemotion` event for hours.
 */
export interface FallThresholds {
  /** Below this magnitude (g) the phone is falling. */
  freeFallG: number;
  /** A free fall counts when it lasts at least this long (ms). */
  freeFallMinMs: number;
  /** At or above this magnitude (g) is an impact. */
  impactG: number;
  /** The impact must come within this time after the free fall ends (ms). */
  impactWindowMs: number;
  /** After the impact: bounces and rolling, not judged (ms). */
  settleMs: number;
  /** Then stillness is judged over this long (ms). */
  stillMs: number;
  /** Still: in every block of the still window, the mean |magnitude - 1 g| is at most this (g). */
  stillMeanDeviationG: number;
  /** Length of those blocks (ms): half a second of walking in the window is movement. */
  stillBlockMs: number;
  /** A longer gap between samples drops any fall in progress: we did not see it (ms). */
  maxGapMs: number;
}

/** Our defaults; docs/phone-gateway.md says where each comes from. */
export const FALL_THRESHOLDS: FallThresholds = {
  freeFallG: 0.6,
  freeFallMinMs: 100,
  impactG: 2.8,
  impactWindowMs: 1000,
  settleMs: 1000,
  stillMs: 2000,
  stillMeanDeviationG: 0.15,
  stillBlockMs: 500,
  maxGapMs: 500,
};

/** A fall the detector saw; the page starts its "are you all right?" countdown on it. */
export interface DetectedFall {
  /** Time of the impact and of the decision (the end of the still window), sample clock (ms). */
  impactAt: number;
  detectedAt: number;
  freeFallMs: number;
  /** Lowest magnitude in the free fall and highest around the impact (g). */
  minG: number;
  peakG: number;
  /** The highest block mean of |magnitude - 1 g| over the still window (g). */
  stillnessG: number;
}

interface FreeFall {
  endedAt: number;
  ms: number;
  minG: number;
}

interface Impact {
  at: number;
  freeFallMs: number;
  minG: number;
  peakG: number;
  /** The still window's block in progress, and the highest block mean so far. */
  blockStart: number | null;
  blockSum: number;
  blockCount: number;
  maxBlockG: number;
}

export interface FallDetectorState {
  lastT: number | null;
  /** The run of samples below freeFallG in progress. */
  lowSince: number | null;
  lowMinG: number;
  /** The last free fall long enough to count, waiting for its impact. */
  freeFall: FreeFall | null;
  /** The impact being judged for stillness. */
  impact: Impact | null;
}

export const FALL_DETECTOR_START: FallDetectorState = {
  lastT: null,
  lowSince: null,
  lowMinG: Infinity,
  freeFall: null,
  impact: null,
};

export interface FallStep {
  state: FallDetectorState;
  fall: DetectedFall | null;
}

/**
 * Feeds one sample. Samples with a missing axis or a time not after the previous one are
 * skipped. A new free fall and impact while one is being judged replace it, so running that
 * ends in a real fall is still seen.
 */
export function stepFallDetector(
  state: FallDetectorState,
  sample: MotionSample,
  thresholds: FallThresholds = FALL_THRESHOLDS,
): FallStep {
  if (!isUsableSample(sample) || (state.lastT !== null && sample.t <= state.lastT)) {
    return { state, fall: null };
  }
  const { t } = sample;
  const g = magnitudeG(sample);
  const th = thresholds;
  let { lowSince, lowMinG, freeFall, impact } =
    state.lastT !== null && t - state.lastT > th.maxGapMs ? FALL_DETECTOR_START : state;

  // Phase 1: a run of low samples long enough is a free fall.
  if (g < th.freeFallG) {
    lowSince ??= t;
    lowMinG = Math.min(lowMinG, g);
  } else if (lowSince !== null) {
    if (t - lowSince >= th.freeFallMinMs)
      freeFall = { endedAt: t, ms: t - lowSince, minG: lowMinG };
    lowSince = null;
    lowMinG = Infinity;
  }
  if (freeFall !== null && t - freeFall.endedAt > th.impactWindowMs) freeFall = null;

  // Phase 2: an impact soon after a free fall starts (or restarts) the judgement.
  if (g >= th.impactG && freeFall !== null) {
    impact = {
      at: t,
      freeFallMs: freeFall.ms,
      minG: freeFall.minG,
      peakG: g,
      blockStart: null,
      blockSum: 0,
      blockCount: 0,
      maxBlockG: 0,
    };
    freeFall = null;
  } else if (impact !== null && t - impact.at < th.settleMs) {
    impact = { ...impact, peakG: Math.max(impact.peakG, g) };
  } else if (impact !== null) {
    // Phase 3: stillness, block by block, over the window after the settling time.
    impact = addToStillWindow(impact, t, Math.abs(g - 1), th);
  }

  let fall: DetectedFall | null = null;
  if (impact !== null && impact.maxBlockG > th.stillMeanDeviationG) {
    impact = null; // moving again: not lying still after the impact
  } else if (impact !== null && t - impact.at >= th.settleMs + th.stillMs) {
    const last = impact.blockCount > 0 ? impact.blockSum / impact.blockCount : 0;
    const stillnessG = Math.max(impact.maxBlockG, last);
    if (stillnessG <= th.stillMeanDeviationG) {
      fall = {
        impactAt: impact.at,
        detectedAt: t,
        freeFallMs: impact.freeFallMs,
        minG: impact.minG,
        peakG: impact.peakG,
        stillnessG,
      };
    }
    impact = null;
  }
  return { state: { lastT: t, lowSince, lowMinG, freeFall, impact }, fall };
}

function addToStillWindow(
  impact: Impact,
  t: number,
  deviation: number,
  th: FallThresholds,
): Impact {
  const blockStart = impact.blockStart ?? t;
  const blockSum = impact.blockSum + deviation;
  const blockCount = impact.blockCount + 1;
  if (t - blockStart < th.stillBlockMs) return { ...impact, blockStart, blockSum, blockCount };
  return {
    ...impact,
    blockStart: null,
    blockSum: 0,
    blockCount: 0,
    maxBlockG: Math.max(impact.maxBlockG, blockSum / blockCount),
  };
}
