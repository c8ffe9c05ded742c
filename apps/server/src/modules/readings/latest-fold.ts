import type { WearerLatestUpdate } from './wearer-latest.repository.js';

/**
 * Per zone: its formatter and the last 15-minute span asked for with its day. Every zone's offset
 * and every change of it since 1972 falls on a quarter hour, so one span is one day; a batch's
 * readings, seconds apart, then cost one formatting instead of one each.
 */
// A memo of a pure function (zone and span -> day), not app state: no context field, nothing to close.
const dayFormats = new Map<string, { format: Intl.DateTimeFormat; span: number; day: string }>();
const SPAN_MS = 15 * 60_000;

const formatFor = (timeZone: string): Intl.DateTimeFormat => {
  const options = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, ...options });
  } catch {
    return new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', ...options });
  }
};

/** YYYY-MM-DD of an instant in a time zone (UTC when the zone is unknown). */
export function localDay(at: Date, timeZone: string): string {
  let zone = dayFormats.get(timeZone);
  if (!zone) {
    zone = { format: formatFor(timeZone), span: Number.NaN, day: '' };
    dayFormats.set(timeZone, zone);
  }
  const span = Math.floor(at.getTime() / SPAN_MS);
  if (span !== zone.span) {
    zone.day = zone.format.format(at);
    zone.span = span;
  }
  return zone.day;
}

/** What one new item says about its wearer's latest values. */
export interface LatestInput {
  /** A worn/removed event (changes latest values, not minute rollups); default a reading. */
  kind?: 'reading' | 'event';
  wearerId: string;
  braceletId: string;
  timeZone: string;
  at: Date;
  heartRate?: number | null;
  skinTemperature?: number | null;
  worn?: boolean | null;
  battery?: number | null;
  sleepStage?: number | null;
  stressLevel?: string | null;
  steps?: number | null;
  wbgt?: number | null;
}

/** Folds a batch's new items, oldest first, into one wearer_latest update per wearer. */
export function foldLatest(items: LatestInput[]): WearerLatestUpdate[] {
  const byWearer = new Map<string, WearerLatestUpdate>();
  for (const it of [...items].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const day = localDay(it.at, it.timeZone);
    let u = byWearer.get(it.wearerId);
    if (!u) {
      u = {
        wearerId: it.wearerId,
        braceletId: it.braceletId,
        heartRate: null,
        heartRateAt: null,
        skinTemperature: null,
        worn: null,
        battery: null,
        sleepStage: null,
        stressLevel: null,
        stepsToday: 0,
        stepsDate: day,
        wbgt: null,
        lastSeenAt: it.at,
      };
      byWearer.set(it.wearerId, u);
    }
    u.lastSeenAt = it.at;
    u.braceletId = it.braceletId;
    if (it.heartRate != null) {
      u.heartRate = it.heartRate;
      u.heartRateAt = it.at;
    }
    u.skinTemperature = it.skinTemperature ?? u.skinTemperature;
    u.worn = it.worn ?? u.worn;
    u.battery = it.battery ?? u.battery;
    u.sleepStage = it.sleepStage ?? u.sleepStage;
    u.stressLevel = it.stressLevel ?? u.stressLevel;
    u.wbgt = it.wbgt ?? u.wbgt;
    if (day !== u.stepsDate) {
      u.stepsDate = day;
      u.stepsToday = 0;
    }
    u.stepsToday += it.steps ?? 0;
  }
  return [...byWearer.values()];
}
