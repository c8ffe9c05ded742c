/** The console's languages as far as dates go. */
export type DateLanguage = 'ja' | 'en';

const EN_MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

interface DateParts {
  year: string;
  month: number;
  day: number;
  hour: string;
  minute: string;
}

/**
 * One formatter per named zone: making an `Intl.DateTimeFormat` costs far more than formatting with
 * it, and a page formats hundreds of times (the map's list, tables).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

function partsOf(at: Date, timeZone: string | undefined): DateParts {
  // The runtime's own zone needs no formatter: Date's local fields are those parts. A page's first
  // `Intl.DateTimeFormat` costs 28-56 ms of the main thread on a 2-core machine (its first render
  // of /devices or /map waited for it); the console formats in the reader's zone.
  if (timeZone === undefined) {
    // As formatToParts does for an invalid date.
    if (Number.isNaN(at.getTime())) throw new RangeError('Invalid time value');
    return {
      year: String(at.getFullYear()),
      month: at.getMonth() + 1,
      day: at.getDate(),
      hour: pad2(at.getHours()),
      minute: pad2(at.getMinutes()),
    };
  }
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of formatterOf(timeZone).formatToParts(at)) parts[p.type] = p.value;
  return {
    year: parts.year ?? '',
    month: Number(parts.month ?? ''),
    day: Number(parts.day ?? ''),
    hour: parts.hour ?? '',
    minute: parts.minute ?? '',
  };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The one date format per language, in tables, charts, CSV and mail: ja `2026/11/22`, en `22 Nov 2026`.
 * `timeZone` is an IANA name (the organisation's for server output); without it the runtime's own zone.
 */
export function formatDate(at: Date | string, lng: DateLanguage, timeZone?: string): string {
  return dateOf(partsOf(new Date(at), timeZone), lng);
}

const dateOf = (p: DateParts, lng: DateLanguage) =>
  lng === 'ja'
    ? `${p.year}/${pad2(p.month)}/${pad2(p.day)}`
    : `${p.day} ${EN_MONTHS[p.month - 1] ?? ''} ${p.year}`;

/** Date and 24-hour time: ja `2026/11/22 19:26`, en `22 Nov 2026, 19:26`. */
export function formatDateTime(at: Date | string, lng: DateLanguage, timeZone?: string): string {
  const p = partsOf(new Date(at), timeZone);
  return `${dateOf(p, lng)}${lng === 'ja' ? ' ' : ', '}${p.hour}:${p.minute}`;
}

/** 24-hour time only (chart axes within a day): `19:26` in both languages. */
export function formatTime(at: Date | string, timeZone?: string): string {
  const p = partsOf(new Date(at), timeZone);
  return `${p.hour}:${p.minute}`;
}

/** The date as a file name part, `20261122`, in the given zone (CSV file names use the organisation's). */
export function compactDate(at: Date | string, timeZone?: string): string {
  const p = partsOf(new Date(at), timeZone);
  return `${p.year}${pad2(p.month)}${pad2(p.day)}`;
}

/** A sleep night's day turns at local noon: what is slept before noon belongs to the night that began the day before. */
export const SLEEP_NIGHT_TURN_HOUR = 12;

/**
 * The one rule that dates a sleep night (docs/sleep-nights.md): the local date, in the organisation's zone, on
 * which the night started. A moment before local noon belongs to the previous date's night, so 23:00 on the 1st
 * and 01:00 on the 2nd are both the night of the 1st; a nap at 14:00 on the 2nd is the 2nd's. `YYYY-MM-DD`.
 */
export function sleepNightOf(at: Date | string, timeZone?: string): string {
  const p = partsOf(new Date(at), timeZone);
  const back = Number(p.hour) < SLEEP_NIGHT_TURN_HOUR ? 1 : 0;
  const d = new Date(Date.UTC(Number(p.year), p.month - 1, p.day - back));
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}
