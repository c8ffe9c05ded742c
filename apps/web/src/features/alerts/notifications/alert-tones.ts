import type { AlertLevel } from '@wearable/domain';

/** One beep: when it starts after the pattern's start (s), its pitch (Hz) and how long it sounds (s). */
export interface ToneNote {
  at: number;
  frequency: number;
  length: number;
}

/** What an alert level sounds like, and how often it comes back while the alert is unconfirmed (null: once). */
export interface TonePattern {
  notes: readonly ToneNote[];
  repeatMs: number | null;
}

/** The spec's two short beeps (880 Hz then 660 Hz), played once per announcement. */
const TWO_BEEPS: readonly ToneNote[] = [
  { at: 0, frequency: 880, length: 0.2 },
  { at: 0.25, frequency: 660, length: 0.2 },
];

/**
 * The console's sounds per level (issue 34 item 5): an EMERGENCY is four fast high beeps, rising and falling twice
 * (a pattern no other level uses), repeated every 4 s until the alert is confirmed or muted for this tab; CRITICAL
 * and the rest keep the two beeps, once.
 */
export const ALERT_TONES: Record<AlertLevel, TonePattern> = {
  EMERGENCY: {
    notes: [
      { at: 0, frequency: 1046, length: 0.12 },
      { at: 0.16, frequency: 1318, length: 0.12 },
      { at: 0.32, frequency: 1046, length: 0.12 },
      { at: 0.48, frequency: 1318, length: 0.12 },
    ],
    repeatMs: 4_000,
  },
  CRITICAL: { notes: TWO_BEEPS, repeatMs: null },
  CAUTION: { notes: TWO_BEEPS, repeatMs: null },
  DEVICE_STATUS: { notes: TWO_BEEPS, repeatMs: null },
};

/** Which level's sound an announcement plays: the most urgent of the levels present. */
const LOUDNESS: readonly AlertLevel[] = ['EMERGENCY', 'CRITICAL', 'CAUTION', 'DEVICE_STATUS'];

export function loudestLevel(levels: readonly AlertLevel[]): AlertLevel | null {
  return LOUDNESS.find((level) => levels.includes(level)) ?? null;
}
