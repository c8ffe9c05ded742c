import type { AlertLevel } from './alerts.js';
import { compareByReading, type NameSortable } from './name-order.js';

/**
 * A resident's state on the night round (docs/night-round.md), in the order a round visits them:
 * not heard, not worn, up, awake, asleep. UP is awake with steps counted in the last
 * ROUND_UP_WINDOW_MS (the bracelet says nothing else of moving).
 */
export const ROUND_STATES = ['NOT_HEARD', 'NOT_WORN', 'UP', 'AWAKE', 'ASLEEP'] as const;
export type RoundState = (typeof ROUND_STATES)[number];

/** No reading for this long: the bracelet is not heard (three 5-minute duty cycles). */
export const ROUND_NOT_HEARD_MS = 15 * 60_000;
/** Steps within this window make an awake resident UP. */
export const ROUND_UP_WINDOW_MS = 5 * 60_000;
/** How far back the "since" of a state is looked for (a night). */
export const ROUND_LOOKBACK_MS = 12 * 3_600_000;

/** The newest values of a resident (wearer_latest). */
export interface RoundLatest {
  lastSeenAt: Date | string | null;
  worn: boolean | null;
  /** Sleep stage code: 1 deep, 2 light, 3 restless, 4 awake (SLEEP_STAGES). */
  sleepStage: number | null;
}

/** One minute of a resident's readings (the minute rollup), oldest or newest first. */
export interface RoundMinute {
  at: Date | string;
  sleepStage: number | null;
  /** false when the minute's readings said not worn only; null when they said nothing. */
  worn: boolean | null;
  steps: number;
}

const isAsleep = (stage: number | null) => stage !== null && stage >= 1 && stage <= 3;
const ms = (at: Date | string) => new Date(at).getTime();

/** What one minute says, or null when it says nothing of worn, sleep or steps. */
export function minuteRoundState(m: RoundMinute): Exclude<RoundState, 'NOT_HEARD'> | null {
  if (m.worn === false) return 'NOT_WORN';
  if (m.steps > 0) return 'UP';
  if (isAsleep(m.sleepStage)) return 'ASLEEP';
  if (m.sleepStage !== null) return 'AWAKE';
  return null;
}

/**
 * A resident's round state now and since when (null: not known within ROUND_LOOKBACK_MS, or never heard).
 * Since is the first minute of the trailing run of that state; a gap longer than ROUND_NOT_HEARD_MS ends the
 * run, and for UP the awake minutes between steps (within ROUND_UP_WINDOW_MS) belong to it.
 */
export function roundStateOf(
  latest: RoundLatest,
  minutes: readonly RoundMinute[],
  now: Date,
): { state: RoundState; since: string | null } {
  const t = now.getTime();
  if (latest.lastSeenAt === null || t - ms(latest.lastSeenAt) > ROUND_NOT_HEARD_MS)
    return {
      state: 'NOT_HEARD',
      since: latest.lastSeenAt === null ? null : new Date(latest.lastSeenAt).toISOString(),
    };
  const newestFirst = minutes
    .filter((m) => ms(m.at) <= t && t - ms(m.at) <= ROUND_LOOKBACK_MS)
    .sort((a, b) => ms(b.at) - ms(a.at));
  const movedLately = newestFirst.some((m) => m.steps > 0 && t - ms(m.at) <= ROUND_UP_WINDOW_MS);
  const state: RoundState =
    latest.worn === false
      ? 'NOT_WORN'
      : movedLately
        ? 'UP'
        : isAsleep(latest.sleepStage)
          ? 'ASLEEP'
          : 'AWAKE';
  let since: number | null = null;
  let previous = t;
  let lastOfState: number | null = null;
  for (const m of newestFirst) {
    const at = ms(m.at);
    if (previous - at > ROUND_NOT_HEARD_MS) break;
    const said = minuteRoundState(m);
    if (said === state) {
      since = at;
      lastOfState = at;
    } else if (said !== null) {
      const tolerated =
        state === 'UP' &&
        said === 'AWAKE' &&
        lastOfState !== null &&
        lastOfState - at <= ROUND_UP_WINDOW_MS;
      if (!tolerated) break;
    }
    previous = at;
  }
  return { state, since: since === null ? null : new Date(since).toISOString() };
}

/** A row of the round sheet as far as its order goes. */
export interface RoundOrderable extends NameSortable {
  state: RoundState;
  /** Levels of the resident's open alerts. */
  openAlertLevels: readonly AlertLevel[];
}

/** How soon a resident needs a visit: 0 first (an open EMERGENCY or CRITICAL alert), 4 last (asleep). */
export function roundUrgency(row: Pick<RoundOrderable, 'state' | 'openAlertLevels'>): number {
  if (row.openAlertLevels.some((l) => l === 'EMERGENCY' || l === 'CRITICAL')) return 0;
  switch (row.state) {
    case 'NOT_HEARD':
      return 1;
    case 'NOT_WORN':
      return 2;
    case 'UP':
    case 'AWAKE':
      return 3;
    case 'ASLEEP':
      return 4;
  }
}

/** The round's order: what needs a visit first, then by how the name is read. */
export function compareRound(collator: Intl.Collator) {
  const byName = compareByReading(collator);
  return (a: RoundOrderable, b: RoundOrderable): number =>
    roundUrgency(a) - roundUrgency(b) || byName(a, b);
}

/**
 * The instants a night covers (docs/sleep-nights.md): from local noon of `night` (YYYY-MM-DD) to local noon of
 * the next day, in `timeZone`.
 */
export function nightWindow(night: string, timeZone: string): { from: Date; to: Date } {
  const [y, m, d] = night.split('-').map(Number) as [number, number, number];
  return {
    from: localTimeToInstant(y, m, d, 12, timeZone),
    to: localTimeToInstant(y, m, d + 1, 12, timeZone),
  };
}

/** The zone's offset from UTC at an instant, in minutes (Tokyo: 540). */
export function zoneOffsetMinutes(at: Date, timeZone: string): number {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  });
  for (const p of format.formatToParts(at)) parts[p.type] = p.value;
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

function localTimeToInstant(y: number, m: number, d: number, hour: number, timeZone: string): Date {
  const guess = Date.UTC(y, m - 1, d, hour);
  const first = guess - zoneOffsetMinutes(new Date(guess), timeZone) * 60_000;
  // Once more with the offset at the first answer (a change of offset between the two).
  return new Date(guess - zoneOffsetMinutes(new Date(first), timeZone) * 60_000);
}

/** ISO 8601 with the zone's offset, to the second: `2026-12-01T23:15:00+09:00` (the night round's CSV). */
export function isoWithOffset(at: Date | string, timeZone: string): string {
  const instant = new Date(at);
  const offset = zoneOffsetMinutes(instant, timeZone);
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local.toISOString().slice(0, 19)}${sign}${hh}:${mm}`;
}
