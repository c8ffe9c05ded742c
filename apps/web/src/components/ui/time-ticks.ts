/** Tick steps a reader counts in: minutes, hours, days, weeks. */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [
  MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  3 * DAY,
  7 * DAY,
  14 * DAY,
] as const;

export interface TimeTicks {
  /** Epoch milliseconds, ascending, inside [from, to]. */
  at: number[];
  step: number;
  /** Whether a tick needs its date (the window spans more than one local day). */
  withDate: boolean;
  /** Whether a tick needs its time (steps shorter than a day). */
  withTime: boolean;
}

/**
 * Ticks for a time axis over [from, to] in the reader's zone, at most `maxTicks`: the smallest step from a fixed
 * list that fits, aligned to local whole steps (00:00, 06:00, ... for 6 hours; local midnights for days), so
 * labels are distinct and round for any window and any amount of data (a 24-hour window with 5 minutes of data
 * still gets 00:00, 06:00, 12:00, 18:00 and never ten ticks all "00:00").
 */
export function timeTicks(from: number, to: number, maxTicks: number): TimeTicks {
  const span = Math.max(to - from, MINUTE);
  const fit = Math.max(1, Math.floor(maxTicks));
  const step = STEPS.find((s) => span / s <= fit) ?? Math.ceil(span / fit / DAY) * DAY;
  const at: number[] = [];
  if (step >= DAY) {
    const days = Math.round(step / DAY);
    const first = new Date(from);
    first.setHours(0, 0, 0, 0);
    if (first.getTime() < from) first.setDate(first.getDate() + 1);
    for (let d = first; d.getTime() <= to; d.setDate(d.getDate() + days)) at.push(d.getTime());
  } else {
    // Aligned to the local clock: a zone's offset in whole minutes keeps 06:00 at 06:00.
    const offset = new Date(from).getTimezoneOffset() * MINUTE;
    let t = Math.ceil((from - offset) / step) * step + offset;
    for (; t <= to; t += step) at.push(t);
  }
  const startDay = new Date(from).toDateString();
  const endDay = new Date(to).toDateString();
  return { at, step, withDate: startDay !== endDay, withTime: step < DAY };
}

/** A tick's label: "06:00", "12/2 06:00" when the window spans days, "12/2" for day steps (24-hour clock). */
export function tickFormatter(ticks: TimeTicks, locale: string): (at: number) => string {
  const format = new Intl.DateTimeFormat(locale, {
    ...(ticks.withDate ? { month: 'numeric', day: 'numeric' } : {}),
    ...(ticks.withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
  });
  // A day-crossing window with hour steps: the date only where the day changes, the time otherwise.
  const time = new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  if (!(ticks.withDate && ticks.withTime)) return (at) => format.format(new Date(at));
  return (at) => {
    const d = new Date(at);
    return d.getHours() === 0 && d.getMinutes() === 0 ? format.format(d) : time.format(d);
  };
}
