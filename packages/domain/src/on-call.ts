import { z } from 'zod';

/**
 * Who is on call for a group (issue 38 item 3; docs/on-call.md). Pure: the server reads the rota and
 * its overrides from the database and asks here; the console shows the same answer.
 *
 * - `daily`: the members take turns, one day each, handing over at `handoverTime` (local).
 * - `weekly`: one week each, handing over at `handoverTime` on the weekday of `startsOn`.
 * - `shifts`: every member follows the same cycle of days (日勤 / 夜勤 / 明け / 休み), member i
 *   i days behind member 0, so a four-day cycle with four members has one day and one night shift
 *   every day. 日勤 runs from `dayShift.start` to `.end`, 夜勤 from `nightShift.start` to `.end` the
 *   next morning; 明け and 休み are off.
 *
 * With `holidayMembers` (daily and weekly only), weekends and Japanese public holidays are covered
 * by those members instead, one day each, in their own turn (a holiday reads as the weekend unless
 * the group treats holidays as weekdays: the caller's `isHoliday`). An override names who covers a
 * period instead of the rota (sick leave, a swap); the newest override wins where two overlap.
 */
export const ON_CALL_KINDS = ['daily', 'weekly', 'shifts'] as const;
export type OnCallKind = (typeof ON_CALL_KINDS)[number];
export const SHIFT_CODES = ['DAY', 'NIGHT', 'AFTER', 'OFF'] as const;
export type ShiftCode = (typeof SHIFT_CODES)[number];
/** The usual Japanese two-shift care cycle: 日勤 -> 夜勤 -> 明け -> 休み. */
export const DEFAULT_SHIFT_PATTERN: readonly ShiftCode[] = ['DAY', 'NIGHT', 'AFTER', 'OFF'];
/** Most people in one rota, and most days in a shift cycle. */
export const ON_CALL_MEMBERS_MAX = 50;
export const SHIFT_PATTERN_MAX = 28;

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (00:00-23:59)');
const localDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && toDays(d) !== null, {
    message: 'must be a real date',
  });
const memberId = z.string().min(1).max(64);
const window = z.object({ start: time, end: time });

export const onCallRota = z
  .object({
    kind: z.enum(ON_CALL_KINDS),
    /** The first turn starts on this local date (at `handoverTime`; for shifts, member 0's first day). */
    startsOn: localDate,
    handoverTime: time,
    /** Staff of the organisation, in turn order. */
    members: z.array(memberId).min(1).max(ON_CALL_MEMBERS_MAX),
    /** Daily and weekly: who covers weekends and public holidays, one day each (absent: the rota). */
    holidayMembers: z.array(memberId).min(1).max(ON_CALL_MEMBERS_MAX).optional(),
    /** Shifts: the cycle of days every member follows. */
    shiftPattern: z.array(z.enum(SHIFT_CODES)).min(1).max(SHIFT_PATTERN_MAX).optional(),
    dayShift: window.optional(),
    nightShift: window.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.kind === 'shifts') {
      for (const k of ['shiftPattern', 'dayShift', 'nightShift'] as const)
        if (r[k] === undefined)
          ctx.addIssue({ code: 'custom', path: [k], message: 'is needed for a shift rota' });
      if (r.holidayMembers)
        ctx.addIssue({
          code: 'custom',
          path: ['holidayMembers'],
          message: 'a shift rota covers every day itself',
        });
    }
    if (new Set(r.members).size !== r.members.length)
      ctx.addIssue({ code: 'custom', path: ['members'], message: 'lists a person twice' });
  });
export type OnCallRota = z.infer<typeof onCallRota>;

export interface OnCallOverride {
  id?: string;
  userId: string;
  startsAt: Date;
  endsAt: Date;
  /** Newer overrides win where two overlap. */
  createdAt: Date;
}

export type OnCallSource = 'rota' | 'holiday' | 'shift' | 'override' | 'none';

/** Who is on call from `from` until `until` (an empty list: nobody, e.g. between shifts). */
export interface OnCallSlot {
  userIds: string[];
  from: Date;
  until: Date;
  source: OnCallSource;
}

export interface OnCallOptions {
  /** Whether a local date is a public holiday that counts as the weekend (the group's setting applied). */
  isHoliday?: (localDate: string) => boolean;
}

const DAY_MS = 86_400_000;
const toMin = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Days since 1970-01-01 of a YYYY-MM-DD date (null if it is not a calendar date). */
function toDays(date: string): number | null {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().slice(0, 10) === date ? Math.round(ms / DAY_MS) : null;
}
const fromDays = (days: number) => new Date(days * DAY_MS).toISOString().slice(0, 10);
/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
const weekdayOf = (days: number) => (((days + 4) % 7) + 7) % 7;
const mod = (a: number, n: number) => ((a % n) + n) % n;

// A memo of a pure function (zone -> formatter), not app state.
const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(at: number, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  const date = `${p.year}-${p.month}-${p.day}`;
  return {
    days: toDays(date) ?? 0,
    minutes: Number(p.hour) * 60 + Number(p.minute),
    seconds: Number(p.second),
  };
}

/** The instant of a local date (days since epoch) and minute of day in a zone. */
export function instantOf(days: number, minutes: number, timeZone: string): Date {
  const wanted = days * DAY_MS + minutes * 60_000;
  // The zone's offset at a guess, then once more at the corrected guess (enough for DST changes).
  let guess = wanted;
  for (let i = 0; i < 2; i++) {
    const p = partsIn(guess, timeZone);
    const seen = p.days * DAY_MS + p.minutes * 60_000 + p.seconds * 1000;
    guess += wanted - seen;
  }
  return new Date(guess);
}

/** The local "day" a moment belongs to when days run from `handover` to `handover`. */
function turnDay(at: Date, handover: number, timeZone: string): number {
  const p = partsIn(at.getTime(), timeZone);
  return p.minutes < handover ? p.days - 1 : p.days;
}

function isWeekendDay(days: number, options: OnCallOptions): boolean {
  const w = weekdayOf(days);
  return w === 0 || w === 6 || (options.isHoliday?.(fromDays(days)) ?? false);
}

/** Weekend and holiday days in [from, to) (to > from), counted one by one (a rota spans years at most). */
function coveredDaysBetween(from: number, to: number, options: OnCallOptions): number {
  let n = 0;
  const [a, b] = from <= to ? [from, to] : [to, from];
  for (let d = a; d < b; d++) if (isWeekendDay(d, options)) n++;
  return from <= to ? n : -n;
}

function rotaSlot(rota: OnCallRota, at: Date, tz: string, options: OnCallOptions): OnCallSlot {
  const start = toDays(rota.startsOn) ?? 0;
  if (rota.kind === 'shifts') return shiftSlot(rota, start, at, tz);
  const handover = toMin(rota.handoverTime);
  const day = turnDay(at, handover, tz);
  const dayFrom = instantOf(day, handover, tz);
  const dayUntil = instantOf(day + 1, handover, tz);
  const holidayMembers = rota.holidayMembers;
  if (holidayMembers && isWeekendDay(day, options)) {
    // The weekend's own turn: counted over weekend and holiday days since the rota's start.
    const index = mod(coveredDaysBetween(start, day, options), holidayMembers.length);
    return {
      userIds: [holidayMembers[index] ?? ''],
      from: dayFrom,
      until: dayUntil,
      source: 'holiday',
    };
  }
  const n = rota.members.length;
  if (rota.kind === 'daily') {
    const index = holidayMembers
      ? mod(day - start - coveredDaysBetween(start, day, options), n)
      : mod(day - start, n);
    return { userIds: [rota.members[index] ?? ''], from: dayFrom, until: dayUntil, source: 'rota' };
  }
  const week = Math.floor((day - start) / 7);
  const weekStart = start + week * 7;
  let until = instantOf(weekStart + 7, handover, tz);
  let from = instantOf(weekStart, handover, tz);
  if (holidayMembers) {
    // A weekday inside the week: the slot ends at the next weekend or holiday day, starts after the last.
    let next = day + 1;
    while (next < weekStart + 7 && !isWeekendDay(next, options)) next++;
    until = instantOf(next, handover, tz);
    let prev = day;
    while (prev > weekStart && !isWeekendDay(prev - 1, options)) prev--;
    from = instantOf(prev, handover, tz);
  }
  return { userIds: [rota.members[mod(week, n)] ?? ''], from, until, source: 'rota' };
}

function shiftSlot(rota: OnCallRota, start: number, at: Date, tz: string): OnCallSlot {
  const pattern = rota.shiftPattern ?? DEFAULT_SHIFT_PATTERN;
  const dayW = rota.dayShift ?? { start: '09:00', end: '17:00' };
  const nightW = rota.nightShift ?? { start: '17:00', end: '09:00' };
  const codeOf = (member: number, days: number): ShiftCode =>
    pattern[mod(days - start - member, pattern.length)] ?? 'OFF';
  // Each local day has its day shift and its night shift (the night ending the next day). The
  // windows around `at`: yesterday's night, today's day, today's night.
  const { days } = partsIn(at.getTime(), tz);
  const windows: { from: Date; until: Date; code: ShiftCode }[] = [];
  for (const d of [days - 1, days, days + 1]) {
    const ds = toMin(dayW.start);
    const de = toMin(dayW.end);
    windows.push({
      from: instantOf(d, ds, tz),
      until: instantOf(de > ds ? d : d + 1, de, tz),
      code: 'DAY',
    });
    const ns = toMin(nightW.start);
    const ne = toMin(nightW.end);
    windows.push({
      from: instantOf(d, ns, tz),
      until: instantOf(ne > ns ? d : d + 1, ne, tz),
      code: 'NIGHT',
    });
  }
  const t = at.getTime();
  const dayOfWindow = (w: { from: Date }) => partsIn(w.from.getTime(), tz).days;
  const on = windows.filter((w) => w.from.getTime() <= t && t < w.until.getTime());
  const userIds = on.flatMap((w) =>
    rota.members.filter((_, i) => codeOf(i, dayOfWindow(w)) === w.code),
  );
  // The slot lasts until the next window starts or ends, from the latest one that started or ended.
  const edges = windows.flatMap((w) => [w.from.getTime(), w.until.getTime()]);
  const until = Math.min(...edges.filter((e) => e > t), t + DAY_MS);
  const from = Math.max(...edges.filter((e) => e <= t), t - DAY_MS);
  return {
    userIds: [...new Set(userIds)],
    from: new Date(from),
    until: new Date(until),
    source: userIds.length ? 'shift' : 'none',
  };
}

/** The override covering `at`, the newest of those that do. */
function overrideAt(overrides: readonly OnCallOverride[], at: number): OnCallOverride | undefined {
  return overrides
    .filter((o) => o.startsAt.getTime() <= at && at < o.endsAt.getTime())
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
}

/**
 * Who is on call at `at` for the rota (null: the group has none) and its overrides, read in the
 * organisation's zone; with the slot's start and end, so the console can say "until 09:00".
 */
export function onCallAt(
  rota: OnCallRota | null,
  overrides: readonly OnCallOverride[],
  at: Date,
  timeZone: string,
  options: OnCallOptions = {},
): OnCallSlot {
  const t = at.getTime();
  const o = overrideAt(overrides, t);
  const base: OnCallSlot = rota
    ? rotaSlot(rota, at, timeZone, options)
    : { userIds: [], from: new Date(t - DAY_MS), until: new Date(t + DAY_MS), source: 'none' };
  // Any override edge inside the slot cuts it (an override may start or end there).
  const edges = overrides.flatMap((x) => [x.startsAt.getTime(), x.endsAt.getTime()]);
  const until = Math.min(base.until.getTime(), ...edges.filter((e) => e > t));
  const from = Math.max(base.from.getTime(), ...edges.filter((e) => e <= t));
  if (o)
    return {
      userIds: [o.userId],
      from: new Date(from),
      until: new Date(until),
      source: 'override',
    };
  return { ...base, from: new Date(from), until: new Date(until) };
}

/** The slot after the one covering `at` (the next handover), skipping a slot of the same people. */
export function nextOnCall(
  rota: OnCallRota | null,
  overrides: readonly OnCallOverride[],
  at: Date,
  timeZone: string,
  options: OnCallOptions = {},
): OnCallSlot {
  const now = onCallAt(rota, overrides, at, timeZone, options);
  const same = (a: OnCallSlot, b: OnCallSlot) =>
    a.userIds.length === b.userIds.length && a.userIds.every((u, i) => b.userIds[i] === u);
  let cursor = now.until;
  for (let i = 0; i < 16; i++) {
    const slot = onCallAt(rota, overrides, cursor, timeZone, options);
    if (!same(now, slot)) return slot;
    cursor = slot.until;
  }
  return onCallAt(rota, overrides, now.until, timeZone, options);
}
