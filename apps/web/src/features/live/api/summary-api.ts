import {
  decodeSummaryColumns,
  type DeviceSummary,
  getDeviceSummary,
  SUMMARY_COLUMNS_QUERY,
  type LiveAlertEvent,
  type WearerSummary,
} from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, NON_HTTP_FAILURE } from '../../../lib/api-client';
import { call, endpointKey } from '../../../lib/endpoint';

/** Every visible wearer's latest state, one object each (read from the compact columns form). */
export interface LiveSummary {
  generatedAt: string;
  wearers: DeviceSummary[];
}

const COLUMNS = { query: SUMMARY_COLUMNS_QUERY } as const;

/** One cache entry for every wearer's latest state; the live stream writes into it. */
export const SUMMARY_KEY = endpointKey(getDeviceSummary, COLUMNS);

/** Low battery as the coverage strip counts it (percent, inclusive). */
export const LOW_BATTERY_PERCENT = 20;

/** GET /v3/device/summary?format=columns&settled=true (every announced change in it), decoded once per fetch. */
export const summaryQuery = () =>
  queryOptions({
    queryKey: SUMMARY_KEY,
    queryFn: async (): Promise<LiveSummary> => {
      const answer = await call(getDeviceSummary, COLUMNS);
      // An answer without the rows is no answer: the page shows its error state instead of breaking.
      if (!('rows' in answer) || !Array.isArray(answer.rows))
        throw new ApiError(NON_HTTP_FAILURE, null);
      return { generatedAt: answer.generatedAt, wearers: decodeSummaryColumns(answer) };
    },
  });

/** The summary, polled every `pollMs` (false while the live stream is open and delivering). */
export function useWearerSummary(pollMs: number | false) {
  return useQuery({ ...summaryQuery(), refetchInterval: pollMs, staleTime: 5_000 });
}

/**
 * Live `summary` events (one wearer's latest state each) applied to the cache in one pass: each
 * replaces that wearer's state (the bracelet's name, which events do not carry, is kept) or adds a
 * wearer the caller may now see. Wearers no event names keep their objects (rows not re-rendered).
 * Before the first fetch there is nothing to merge into: the fetch brings the newest state anyway.
 */
export function mergeSummaryEvents(
  current: LiveSummary | undefined,
  events: readonly WearerSummary[],
): LiveSummary | undefined {
  if (current === undefined || events.length === 0) return current;
  const latest = new Map(events.map((w) => [w.uid, w]));
  const wearers = current.wearers.map((w) => {
    const next = latest.get(w.uid);
    if (next === undefined) return w;
    latest.delete(w.uid);
    return { ...w, ...next };
  });
  for (const w of latest.values()) wearers.push({ deviceName: null, ...w });
  return { ...current, wearers };
}

/**
 * A live `alert` event applied to its wearer's open alerts: an open alert is added (or updated), a
 * closed one removed. The server's next `summary` event for the wearer confirms it; nothing is refetched.
 */
export function applyAlertEvent(
  current: LiveSummary | undefined,
  event: LiveAlertEvent,
): LiveSummary | undefined {
  if (current === undefined) return undefined;
  const { alert } = event;
  // An alert of a device no wearer holds (issue 34) belongs to no wearer's summary.
  if (alert.wearer === null) return current;
  const uid = alert.wearer.uid;
  const index = current.wearers.findIndex((w) => w.uid === uid);
  if (index === -1) return current;
  const wearer = current.wearers[index]!;
  const others = wearer.openAlerts.filter((a) => a.id !== alert.id);
  const openAlerts =
    alert.status === 'OPEN'
      ? [
          { id: alert.id, type: alert.type, level: alert.level, openedAt: alert.openedAt },
          ...others,
        ].sort((a, b) => b.openedAt.localeCompare(a.openedAt))
      : others;
  const wearers = current.wearers.slice();
  wearers[index] = { ...wearer, openAlerts };
  return { ...current, wearers };
}

export interface Coverage {
  total: number;
  notWorn: number;
  offline: number;
  lowBattery: number;
  /** Wearers with an open EMERGENCY or CRITICAL alert. */
  urgent: number;
}

/** Who is not monitored right now, counted once per wearer per reason. */
export function coverageOf(wearers: readonly WearerSummary[]): Coverage {
  return {
    total: wearers.length,
    notWorn: wearers.filter((w) => w.worn === false).length,
    offline: wearers.filter((w) => w.connection === 'offline').length,
    lowBattery: wearers.filter((w) => w.battery !== null && w.battery <= LOW_BATTERY_PERCENT)
      .length,
    urgent: wearers.filter((w) =>
      w.openAlerts.some((a) => a.level === 'EMERGENCY' || a.level === 'CRITICAL'),
    ).length,
  };
}
