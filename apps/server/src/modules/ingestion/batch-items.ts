import {
  braceletReading,
  deviceEvent,
  environmentReading,
  gatewayStatusReport,
  READING_LIMITS,
  type BraceletReading,
  type DeviceEvent,
  type EnvironmentReading,
  type GatewayStatusReport,
} from '@wearable/domain';
import type { z } from 'zod';

export type ItemList = 'readings' | 'environment' | 'events' | 'pairings' | 'configAcks' | 'status';
export interface RejectedItem {
  list: ItemList;
  index: number;
  reason: string;
}

/** A parsed item with its place in the batch, so a later refusal can still name it. */
export interface Indexed<T> {
  index: number;
  item: T;
  at: Date;
}

export interface ParsedItems {
  readings: Indexed<BraceletReading>[];
  environment: Indexed<EnvironmentReading>[];
  events: Indexed<DeviceEvent>[];
  rejected: RejectedItem[];
  /** Items stored without an optional part that was invalid (see `parseEvent`), each naming it. */
  warnings: RejectedItem[];
}

/** A local date-time with no `Z` or `±hh:mm`: the gateway's own mistake, named as such. */
const WITHOUT_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/;
export const OFFSET_REQUIRED = 'needs a UTC offset (Z or ±hh:mm), e.g. 2026-12-01T04:02:00+09:00';

/** The first issue as `path: message`; a time without its offset says that the offset is required. */
export function firstIssue(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  raw?: unknown,
): string {
  const issue = error.issues[0];
  if (!issue) return 'is invalid';
  const path = issue.path.map(String).join('.');
  if (issue.path.at(-1) === 'at') {
    let value: unknown = raw;
    for (const key of issue.path)
      value = typeof value === 'object' && value !== null ? (value as never)[key] : undefined;
    if (typeof value === 'string' && WITHOUT_OFFSET.test(value))
      return `${path}: ${OFFSET_REQUIRED}`;
  }
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Range checks the schema leaves to the server, so each refused reading gets its own reason. */
function readingRangeProblem(r: BraceletReading): string | null {
  const { heartRate: hr, temperature: t } = READING_LIMITS;
  if (r.heartRate !== undefined && (r.heartRate < hr.min || r.heartRate > hr.max)) {
    return `heartRate ${r.heartRate} is outside ${hr.min}..${hr.max}`;
  }
  if (r.skinTemperature !== undefined && (r.skinTemperature < t.min || r.skinTemperature > t.max)) {
    return `skinTemperature ${r.skinTemperature} is outside ${t.min}..${t.max} C`;
  }
  return null;
}

/** PostgreSQL text cannot hold U+0000: such an item is refused alone instead of failing the whole batch. */
function nulField(item: object): string | null {
  for (const [key, value] of Object.entries(item)) {
    if (typeof value === 'string' && value.includes('\u0000'))
      return `${key} must not contain a NUL character`;
  }
  return null;
}

/** The window an item's time must fall in (READING_LIMITS), relative to the server's clock. */
export const itemWindow = (now: Date) => ({
  earliest: now.getTime() - READING_LIMITS.pastToleranceMs,
  latest: now.getTime() + READING_LIMITS.futureToleranceMs,
});

function atProblem(at: number, window: { earliest: number; latest: number }): string | null {
  if (at > window.latest) return 'at is more than 5 minutes in the future';
  if (at < window.earliest) return 'at is more than 7 days in the past';
  return null;
}

/** A position's time is checked like the item's own: not in the future beyond the tolerance. */
function locationProblem(item: object, window: { latest: number }): string | null {
  const location = (item as { location?: { at: string } }).location;
  if (location === undefined) return null;
  if (new Date(location.at).getTime() > window.latest) {
    return 'location.at is more than 5 minutes in the future';
  }
  return null;
}

type Window = { earliest: number; latest: number };

/** The checks after the schema: the time window, NUL characters, a position from the future, `extraCheck`. */
function problemOf<T extends { at: string }>(
  item: T,
  window: Window,
  extraCheck?: (item: T) => string | null,
): string | null {
  return (
    atProblem(new Date(item.at).getTime(), window) ??
    nulField(item) ??
    locationProblem(item, window) ??
    extraCheck?.(item) ??
    null
  );
}

function parseList<T extends { at: string }>(
  list: ItemList,
  items: unknown[],
  schema: z.ZodType<T>,
  window: Window,
  rejected: RejectedItem[],
  extraCheck?: (item: T) => string | null,
): Indexed<T>[] {
  const out: Indexed<T>[] = [];
  items.forEach((raw, index) => {
    const parsed = schema.safeParse(raw);
    const reason = parsed.success
      ? problemOf(parsed.data, window, extraCheck)
      : firstIssue(parsed.error, raw);
    if (reason !== null || !parsed.success) {
      rejected.push({ list, index, reason: reason ?? 'is invalid' });
      return;
    }
    out.push({ index, item: parsed.data, at: new Date(parsed.data.at) });
  });
  return out;
}

/** The optional parts of a device event, which an SOS or FALL may lose but never be lost for. */
const OPTIONAL_EVENT_PARTS = ['cause', 'location', 'rssi'] as const;

const withoutParts = (raw: object, parts: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(raw).filter(([k]) => !parts.includes(k)));

/**
 * A device event, checked like any item, except that an SOS or FALL is never refused for an
 * optional part: when what is wrong is only its `cause`, `location` (its shape, or a position
 * from the future) or `rssi`, the event is stored without that part and a warning names it. A wrong serial,
 * type or time still refuses it.
 */
function parseEvent(
  raw: unknown,
  index: number,
  window: Window,
  rejected: RejectedItem[],
  warnings: RejectedItem[],
): Indexed<DeviceEvent> | null {
  const first = deviceEvent.safeParse(raw);
  const reason = first.success ? problemOf(first.data, window) : firstIssue(first.error, raw);
  if (reason === null && first.success)
    return { index, item: first.data, at: new Date(first.data.at) };
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : null;
  // What to drop: the fields the schema names, or a position from the future.
  const parts = first.success
    ? locationProblem(first.data, window) !== null
      ? ['location']
      : []
    : [...new Set(first.error.issues.map((i) => String(i.path[0])))];
  const onlyOptional =
    parts.length > 0 && parts.every((p) => (OPTIONAL_EVENT_PARTS as readonly string[]).includes(p));
  if ((type === 'SOS' || type === 'FALL') && onlyOptional) {
    const second = deviceEvent.safeParse(withoutParts(raw as object, parts));
    if (second.success && problemOf(second.data, window) === null) {
      warnings.push({
        list: 'events',
        index,
        reason: `${reason}; stored without ${parts.join(' and ')}`,
      });
      return { index, item: second.data, at: new Date(second.data.at) };
    }
  }
  rejected.push({ list: 'events', index, reason: reason ?? 'is invalid' });
  return null;
}

/** Parses every item of a batch on its own: a bad item is refused, the others go on. */
export function parseBatchItems(
  batch: { readings?: unknown[]; environment?: unknown[]; events?: unknown[] },
  now: Date,
): ParsedItems {
  const window = itemWindow(now);
  const rejected: RejectedItem[] = [];
  const warnings: RejectedItem[] = [];
  return {
    readings: parseList(
      'readings',
      batch.readings ?? [],
      braceletReading,
      window,
      rejected,
      readingRangeProblem,
    ),
    environment: parseList(
      'environment',
      batch.environment ?? [],
      environmentReading,
      window,
      rejected,
    ),
    events: (batch.events ?? []).flatMap(
      (raw, index) => parseEvent(raw, index, window, rejected, warnings) ?? [],
    ),
    rejected,
    warnings,
  };
}

/** The batch's optional gateway status, checked like an item (refused alone, as `status` index 0). */
export function parseGatewayStatus(
  raw: unknown,
  now: Date,
  rejected: RejectedItem[],
): Indexed<GatewayStatusReport> | null {
  if (raw === undefined) return null;
  return parseList('status', [raw], gatewayStatusReport, itemWindow(now), rejected)[0] ?? null;
}
