/**
 * Japan's 2025 heat rule (労働安全衛生規則 第612条の2, in force since 2025-06-01): an employer whose
 * work is done at WBGT >= 28 or air temperature >= 31 C "for an hour or more at a stretch, or for
 * more than four hours a day" must have a reporting system (named contacts) and written procedures
 * (stop work, cool the body, get medical care, emergency contacts, the nearest hospital).
 *
 * This module marks, from one gateway's environment readings of one day, which clock hours were
 * such work. Pure: no clock, no time zone (the caller gives the day's bounds as instants).
 */

/** WBGT at or above this (C) is hot work under the rule. */
export const HEAT_RULE_WBGT = 28;
/** Air temperature at or above this (C) is hot work under the rule. */
export const HEAT_RULE_AIR_TEMPERATURE = 31;
/** A stretch of hot minutes at least this long makes the day applicable. */
export const HEAT_RULE_STRETCH_MINUTES = 60;
/** More hot minutes than this in the day makes the day applicable. */
export const HEAT_RULE_DAY_MINUTES = 240;
/** A reading stands for the minutes until the next one, at most this long (a gap beyond is unknown, not hot). */
export const HEAT_RULE_MAX_GAP_MINUTES = 30;

/** One environment reading of a gateway. */
export interface EnvironmentSample {
  at: Date;
  wbgt: number | null;
  temperature: number | null;
}

/** A reading is hot when either measure reaches its threshold. */
export const isHotSample = (s: Pick<EnvironmentSample, 'wbgt' | 'temperature'>): boolean =>
  (s.wbgt !== null && s.wbgt >= HEAT_RULE_WBGT) ||
  (s.temperature !== null && s.temperature >= HEAT_RULE_AIR_TEMPERATURE);

export interface HeatRuleDay {
  /** Minutes of the day at WBGT >= 28 or air temperature >= 31. */
  hotMinutes: number;
  /** The longest run of hot minutes. */
  longestStretchMinutes: number;
  /** The rule applies to this day: a stretch of an hour or more, or more than four hours in all. */
  applicable: boolean;
  /** Hot minutes in each clock hour of the day (index 0 = the hour starting at dayStart). */
  hotMinutesByHour: number[];
  /** Hours of applicable work: hours with hot minutes, on an applicable day (indexes as above). */
  applicableHours: number[];
}

/**
 * Which hours of the day [dayStart, dayEnd) were hot work under the rule. Each reading covers the
 * minutes from its time until the next reading, at most `maxGapMinutes`; a reading before
 * dayStart still covers the day's first minutes. Minutes are whole minutes from dayStart.
 */
export function heatRuleDay(
  samples: readonly EnvironmentSample[],
  dayStart: Date,
  dayEnd: Date,
  maxGapMinutes = HEAT_RULE_MAX_GAP_MINUTES,
): HeatRuleDay {
  const start = dayStart.getTime();
  const n = Math.max(0, Math.round((dayEnd.getTime() - start) / 60_000));
  const hot = new Uint8Array(n);
  const sorted = [...samples].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (let i = 0; i < sorted.length; i++) {
    const s = sorted[i]!;
    if (!isHotSample(s)) continue;
    const at = s.at.getTime();
    const next = sorted[i + 1]?.at.getTime() ?? Number.POSITIVE_INFINITY;
    const until = Math.min(next, at + maxGapMinutes * 60_000);
    const from = Math.max(0, Math.floor((at - start) / 60_000));
    const to = Math.min(n, Math.ceil((until - start) / 60_000));
    for (let m = from; m < to; m++) hot[m] = 1;
  }
  let hotMinutes = 0;
  let longest = 0;
  let run = 0;
  const hours = Math.ceil(n / 60);
  const hotMinutesByHour = new Array<number>(hours).fill(0);
  for (let m = 0; m < n; m++) {
    if (hot[m]) {
      hotMinutes++;
      run++;
      longest = Math.max(longest, run);
      hotMinutesByHour[Math.floor(m / 60)]!++;
    } else {
      run = 0;
    }
  }
  const applicable = longest >= HEAT_RULE_STRETCH_MINUTES || hotMinutes > HEAT_RULE_DAY_MINUTES;
  return {
    hotMinutes,
    longestStretchMinutes: longest,
    applicable,
    hotMinutesByHour,
    applicableHours: applicable ? hotMinutesByHour.flatMap((v, h) => (v > 0 ? [h] : [])) : [],
  };
}

/**
 * A site (group) with several gateways: an hour is applicable work when any gateway marks it.
 * Returns the union of the gateways' applicable hours, sorted.
 */
export function siteApplicableHours(days: readonly HeatRuleDay[]): number[] {
  return [...new Set(days.flatMap((d) => d.applicableHours))].sort((a, b) => a - b);
}

/** The procedure steps of the rule, in order; a heat alert's confirmation may record which were taken. */
export const HEAT_PROCEDURE_STEPS = [
  'STOP_WORK',
  'COOL_BODY',
  'MEDICAL_CARE',
  'EMERGENCY_CONTACT',
] as const;
export type HeatProcedureStep = (typeof HEAT_PROCEDURE_STEPS)[number];

/** Alert types that are heat alerts (the site's heat procedure is shown with them). */
export const HEAT_ALERT_TYPES = [
  'HEATSTROKE',
  'ADVANCED_HEATSTROKE_RISK',
  'ADVANCED_HEATSTROKE',
] as const;
export const isHeatAlertType = (type: string): boolean =>
  (HEAT_ALERT_TYPES as readonly string[]).includes(type);
