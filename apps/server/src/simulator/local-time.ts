/** Wall-clock time in the organisation's zone: what the wearers' day is planned on. */
export interface LocalTime {
  /** 0..1439 */
  minuteOfDay: number;
  /** 0 = Sunday .. 6 = Saturday */
  weekday: number;
  /** Days since 1970-01-01 in the zone: a stable key for per-day variation. */
  dayNumber: number;
}

/** A converter for one zone. The offset is looked up once per hour: Intl is slow per call. */
export function localTimeIn(timeZone: string): (epochMinute: number) => LocalTime {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const offsetByHour = new Map<number, number>();
  const offsetMinutes = (epochMinute: number): number => {
    const hour = Math.floor(epochMinute / 60);
    let offset = offsetByHour.get(hour);
    if (offset === undefined) {
      const parts = Object.fromEntries(
        format.formatToParts(new Date(hour * 3_600_000)).map((p) => [p.type, p.value]),
      );
      const asUtc = Date.UTC(
        Number(parts.year),
        Number(parts.month) - 1,
        Number(parts.day),
        Number(parts.hour),
        Number(parts.minute),
      );
      offset = Math.round((asUtc - hour * 3_600_000) / 60_000);
      if (offsetByHour.size > 10_000) offsetByHour.clear();
      offsetByHour.set(hour, offset);
    }
    return offset;
  };
  return (epochMinute) => {
    const local = epochMinute + offsetMinutes(epochMinute);
    const dayNumber = Math.floor(local / 1440);
    const minuteOfDay = local - dayNumber * 1440;
    // 1970-01-01 was a Thursday.
    const weekday = (((dayNumber + 4) % 7) + 7) % 7;
    return { minuteOfDay, weekday, dayNumber };
  };
}
