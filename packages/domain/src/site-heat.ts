import type { AlertPolicy } from './alert-policy.js';
import {
  HEAT_RULE_DAY_MINUTES,
  HEAT_RULE_MAX_GAP_MINUTES,
  HEAT_RULE_STRETCH_MINUTES,
  isHotSample,
} from './heat-rule.js';
import {
  SITE_HEAT_LEVELS,
  SITE_HEAT_LOWER_BOUND,
  type SiteHeatLevel,
  siteHeatRank,
} from './site-heat-levels.js';

/**
 * A site's heat level, stepped one environment reading of its gateway at a time (pure; the
 * server keeps the state in `site_heat_state` and calls this in the transaction that stores
 * the readings).
 *
 * - Entering: the site rises to a higher level once WBGT has been at or above that level's
 *   lower bound for `siteHeatEnterMinutes` (readings' own times). A rise of several levels is
 *   one change (to the highest level whose window is complete).
 * - Leaving: the site falls from its level once WBGT has been at least `siteHeatLeaveMargin`
 *   below the level's lower bound for `siteHeatLeaveMinutes`, to the highest lower level it has
 *   not also left by the same rule (one change, however many levels).
 * - A gap of more than 30 minutes between WBGT readings breaks every run (as `heatRuleDay`).
 * - A reading at or before the last one the state has seen is ignored (the state never rewinds).
 * - The MHLW 2025 heat rule (WBGT >= 28 or air >= 31 C for an hour at a stretch or more than four
 *   hours in the local day) is tracked alongside; each change says whether it applies today.
 *   It is not a change of its own: WBGT 28 for an hour has already raised the site to SEVERE.
 *
 * The state is plain JSON of constant size: store it, read it back, step again.
 */

/** Levels above NORMAL, each with the start of its current run (ISO) or null. */
type Runs = Record<Exclude<SiteHeatLevel, 'NORMAL'>, string | null>;
const RAISED = ['CAUTION', 'SEVERE', 'DANGER'] as const;

export interface SiteHeatState {
  level: SiteHeatLevel;
  /** When the current level began (the reading that completed its window); null: never changed. */
  since: string | null;
  /** The last WBGT reading taken into account. */
  wbgt: number | null;
  wbgtAt: string | null;
  /** Since when WBGT has been at or above each level's lower bound (null: not now). */
  above: Runs;
  /** Since when WBGT has been at least the margin below each level's lower bound (null: not now). */
  below: Runs;
  /** The MHLW heat rule, for the local day of the last reading (WBGT or air). */
  heatRule: {
    /** YYYY-MM-DD, local. */
    day: string | null;
    /** The last reading (WBGT or air) and whether it was hot. */
    lastAt: string | null;
    lastHot: boolean;
    hotMinutes: number;
    /** Hot minutes of the stretch that the last reading continues (within the day). */
    stretchMinutes: number;
    longestStretchMinutes: number;
    applies: boolean;
  };
}

export const initialSiteHeatState = (): SiteHeatState => ({
  level: 'NORMAL',
  since: null,
  wbgt: null,
  wbgtAt: null,
  above: { CAUTION: null, SEVERE: null, DANGER: null },
  below: { CAUTION: null, SEVERE: null, DANGER: null },
  heatRule: {
    day: null,
    lastAt: null,
    lastHot: false,
    hotMinutes: 0,
    stretchMinutes: 0,
    longestStretchMinutes: 0,
    applies: false,
  },
});

export interface SiteHeatSample {
  at: Date;
  wbgt: number | null;
  airTemperature?: number | null;
}

export type SiteHeatPolicy = Pick<
  AlertPolicy,
  'siteHeatEnterMinutes' | 'siteHeatLeaveMinutes' | 'siteHeatLeaveMargin'
>;

/** Why a level changed (stored as `site_heat_events.cause`). */
export interface SiteHeatCause {
  /** 'enter': rose to a higher level; 'leave': fell below the level it had. */
  rule: 'enter' | 'leave';
  /** The window the rule needs (minutes) and how long the value had held when it changed. */
  windowMinutes: number;
  heldMinutes: number;
  /** For 'leave': how far below the level's lower bound WBGT had to be (C). */
  margin?: number;
  /** The MHLW 2025 heat rule on the local day of the change. */
  heatRule: {
    appliesToday: boolean;
    hotMinutesToday: number;
    longestStretchMinutesToday: number;
  };
}

export interface SiteHeatChange {
  from: SiteHeatLevel;
  to: SiteHeatLevel;
  at: Date;
  wbgt: number;
  cause: SiteHeatCause;
}

export interface SiteHeatStep {
  state: SiteHeatState;
  change: SiteHeatChange | null;
  /** True on the reading that made the heat rule apply for the day (shown; not notified on its own). */
  heatRuleStarted: boolean;
}

const MINUTE = 60_000;
const GAP_MS = HEAT_RULE_MAX_GAP_MINUTES * MINUTE;

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
/** The local date YYYY-MM-DD of an instant (an unknown zone falls back to Asia/Tokyo). */
export function localDay(at: number, timeZone: string): string {
  let f = dayFormatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    } catch {
      f = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'Asia/Tokyo',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    }
    dayFormatters.set(timeZone, f);
  }
  return f.format(at);
}

/**
 * The heat rule's day after one more reading: the previous reading, if hot, covers the minutes
 * until this one (at most 30), split at local midnight as `heatRuleDay` does.
 */
function stepHeatRule(
  h: SiteHeatState['heatRule'],
  at: number,
  hot: boolean,
  timeZone: string,
): SiteHeatState['heatRule'] {
  const out = { ...h };
  const day = localDay(at, timeZone);
  if (out.lastAt !== null && out.lastHot) {
    const from = Date.parse(out.lastAt);
    const until = Math.min(at, from + GAP_MS);
    const minutes = Math.max(0, Math.ceil((until - from) / MINUTE));
    // Whole minutes, all in the day of the last reading (the usual case): one step.
    if (minutes > 0 && localDay(from + (minutes - 1) * MINUTE, timeZone) === out.day) {
      out.hotMinutes += minutes;
      out.stretchMinutes += minutes;
      out.longestStretchMinutes = Math.max(out.longestStretchMinutes, out.stretchMinutes);
    } else {
      // Across local midnight, minute by minute: the stretch restarts at midnight (the new day's first minutes).
      for (let m = from; m < until; m += MINUTE) {
        const d = localDay(m, timeZone);
        if (d !== out.day) {
          out.day = d;
          out.hotMinutes = 0;
          out.stretchMinutes = 0;
          out.longestStretchMinutes = 0;
          out.applies = false;
        }
        out.hotMinutes++;
        out.stretchMinutes++;
        out.longestStretchMinutes = Math.max(out.longestStretchMinutes, out.stretchMinutes);
      }
    }
    // The stretch goes on only if this reading is hot and follows within the gap.
    if (at - from > GAP_MS) out.stretchMinutes = 0;
  }
  if (out.day !== day) {
    out.day = day;
    out.hotMinutes = 0;
    out.stretchMinutes = 0;
    out.longestStretchMinutes = 0;
    out.applies = false;
  }
  if (!hot) out.stretchMinutes = 0;
  out.applies =
    out.applies ||
    out.longestStretchMinutes >= HEAT_RULE_STRETCH_MINUTES ||
    out.hotMinutes > HEAT_RULE_DAY_MINUTES;
  out.lastAt = new Date(at).toISOString();
  out.lastHot = hot;
  return out;
}

const heldMinutes = (since: string | null, at: number): number =>
  since === null ? -1 : (at - Date.parse(since)) / MINUTE;

/**
 * One environment reading of a gateway: the next state and the change of level it causes, if any.
 * `timeZone` is the organisation's (the heat rule's day is local).
 */
export function siteHeatStep(
  state: SiteHeatState,
  sample: SiteHeatSample,
  policy: SiteHeatPolicy,
  timeZone: string,
): SiteHeatStep {
  const at = sample.at.getTime();
  const last = Math.max(
    state.wbgtAt === null ? -Infinity : Date.parse(state.wbgtAt),
    state.heatRule.lastAt === null ? -Infinity : Date.parse(state.heatRule.lastAt),
  );
  if (!Number.isFinite(at) || at <= last) return { state, change: null, heatRuleStarted: false };

  const air = sample.airTemperature ?? null;
  const heatRule = stepHeatRule(
    state.heatRule,
    at,
    isHotSample({ wbgt: sample.wbgt, temperature: air }),
    timeZone,
  );
  const heatRuleStarted =
    heatRule.applies && !(state.heatRule.applies && state.heatRule.day === heatRule.day);
  const next: SiteHeatState = { ...state, heatRule };
  const wbgt = sample.wbgt;
  if (wbgt === null || !Number.isFinite(wbgt))
    return { state: next, change: null, heatRuleStarted };

  // A gap longer than 30 minutes since the last WBGT breaks every run.
  const broken = state.wbgtAt === null || at - Date.parse(state.wbgtAt) > GAP_MS;
  const iso = sample.at.toISOString();
  const above = { ...state.above };
  const below = { ...state.below };
  for (const level of RAISED) {
    const bound = SITE_HEAT_LOWER_BOUND[level];
    above[level] = wbgt >= bound ? ((broken ? null : above[level]) ?? iso) : null;
    below[level] =
      wbgt <= bound - policy.siteHeatLeaveMargin ? ((broken ? null : below[level]) ?? iso) : null;
  }
  next.above = above;
  next.below = below;
  next.wbgt = wbgt;
  next.wbgtAt = iso;

  const rank = siteHeatRank(state.level);
  const heatRuleCause = {
    appliesToday: heatRule.applies,
    hotMinutesToday: heatRule.hotMinutes,
    longestStretchMinutesToday: heatRule.longestStretchMinutes,
  };
  // Rise: the highest level above the current one whose enter window is complete.
  for (let r = SITE_HEAT_LEVELS.length - 1; r > rank; r--) {
    const level = SITE_HEAT_LEVELS[r] as Exclude<SiteHeatLevel, 'NORMAL'>;
    const held = heldMinutes(above[level], at);
    if (held >= policy.siteHeatEnterMinutes) {
      return changed(next, state.level, level, sample.at, wbgt, heatRuleStarted, {
        rule: 'enter',
        windowMinutes: policy.siteHeatEnterMinutes,
        heldMinutes: Math.round(held),
        heatRule: heatRuleCause,
      });
    }
  }
  // Fall: the current level is left once WBGT has been below it (less the margin) long enough;
  // the site lands on the highest lower level it has not also left.
  const left = (level: SiteHeatLevel) =>
    level !== 'NORMAL' && heldMinutes(below[level], at) >= policy.siteHeatLeaveMinutes;
  if (left(state.level)) {
    let r = rank - 1;
    while (r > 0 && left(SITE_HEAT_LEVELS[r]!)) r--;
    const held = heldMinutes(below[state.level as Exclude<SiteHeatLevel, 'NORMAL'>], at);
    return changed(next, state.level, SITE_HEAT_LEVELS[r]!, sample.at, wbgt, heatRuleStarted, {
      rule: 'leave',
      windowMinutes: policy.siteHeatLeaveMinutes,
      heldMinutes: Math.round(held),
      margin: policy.siteHeatLeaveMargin,
      heatRule: heatRuleCause,
    });
  }
  return { state: next, change: null, heatRuleStarted };
}

function changed(
  next: SiteHeatState,
  from: SiteHeatLevel,
  to: SiteHeatLevel,
  at: Date,
  wbgt: number,
  heatRuleStarted: boolean,
  cause: SiteHeatCause,
): SiteHeatStep {
  return {
    state: { ...next, level: to, since: at.toISOString() },
    change: { from, to, at, wbgt, cause },
    heatRuleStarted,
  };
}

/**
 * A stored state (jsonb, possibly older or damaged) as a usable one: anything unreadable starts
 * afresh at NORMAL rather than stopping the gateway's ingestion.
 */
export function readSiteHeatState(raw: unknown): SiteHeatState {
  const fresh = initialSiteHeatState();
  if (raw === null || typeof raw !== 'object') return fresh;
  const s = raw as Partial<SiteHeatState>;
  if (!s.level || !(SITE_HEAT_LEVELS as readonly string[]).includes(s.level)) return fresh;
  return {
    ...fresh,
    ...s,
    above: { ...fresh.above, ...s.above },
    below: { ...fresh.below, ...s.below },
    heatRule: { ...fresh.heatRule, ...s.heatRule },
  };
}

/**
 * Which changes of a site's level are notified to the site's heat contacts (one message per change):
 * every rise (the contacts must act: more breaks, water, stop work), and the return below SEVERE
 * (the heat rule's WBGT 28 no longer met: work may resume). Falls that stay at SEVERE or above, and
 * CAUTION -> NORMAL, are shown and recorded but not sent. A phone call only for a rise to DANGER;
 * a contact whose channel is a call gets the other notices by SMS.
 */
export function siteHeatNoticeOf(
  from: SiteHeatLevel,
  to: SiteHeatLevel,
): { kind: 'rise' | 'clear'; callAllowed: boolean } | null {
  if (siteHeatRank(to) > siteHeatRank(from)) return { kind: 'rise', callAllowed: to === 'DANGER' };
  const severe = siteHeatRank('SEVERE');
  if (siteHeatRank(from) >= severe && siteHeatRank(to) < severe)
    return { kind: 'clear', callAllowed: false };
  return null;
}
