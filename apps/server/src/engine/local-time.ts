/**
 * Minute of the day in a time zone. Intl formatters are costly to build (tens of microseconds),
 * and the sleep-window check runs on every reading with a sleep stage: keep one per zone.
 */
// A memo of a pure function (zone -> formatter), not app state: no context field, nothing to close.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Zone used when an organisation's zone is not a valid IANA name (the product is Japanese first). */
export const FALLBACK_TIME_ZONE = 'Asia/Tokyo';
// A memo of a pure function (zone -> valid?), not app state.
const validZones = new Map<string, boolean>();

/** The zone itself if Intl knows it, else FALLBACK_TIME_ZONE: a bad zone must not stop monitoring. */
export function usableTimeZone(timeZone: string): string {
  let valid = validZones.get(timeZone);
  if (valid === undefined) {
    try {
      formatterFor(timeZone);
      valid = true;
    } catch {
      valid = false;
    }
    validZones.set(timeZone, valid);
  }
  return valid ? timeZone : FALLBACK_TIME_ZONE;
}

export function minuteOfDay(at: number, timeZone: string): number {
  let hour = 0;
  let minute = 0;
  for (const part of formatterFor(timeZone).formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether a moment is inside a daily window, both ends inclusive to the minute; an end before
 * the start spans midnight (as isWithinSchedule reads weekly schedules).
 */
export function isWithinDailyWindow(
  at: number,
  timeZone: string,
  start: string,
  end: string,
): boolean {
  const m = minuteOfDay(at, timeZone);
  const s = toMinutes(start);
  const e = toMinutes(end);
  return s <= e ? m >= s && m <= e : m >= s || m <= e;
}
