import type { SummaryResponse, WearerSummary } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError, NON_HTTP_FAILURE, unwrap } from '../../../lib/api-client';

/** One cache entry for every wearer's latest state; the live stream writes into it. */
export const SUMMARY_KEY = ['live', 'summary'] as const;

/** Low battery as the coverage strip counts it (percent, inclusive). */
export const LOW_BATTERY_PERCENT = 20;

/** GET /v3/device/summary, polled every `pollMs` (false while the live stream is open and delivering). */
export function useWearerSummary(pollMs: number | false) {
  return useQuery({
    queryKey: SUMMARY_KEY,
    queryFn: async () => {
      const summary = unwrap(await api.get<SummaryResponse>('/v3/device/summary'));
      // An answer without the list is no answer: the page shows its error state instead of breaking.
      if (!Array.isArray(summary.wearers)) throw new ApiError(NON_HTTP_FAILURE, null);
      return summary;
    },
    refetchInterval: pollMs,
    staleTime: 5_000,
  });
}

/**
 * A `summary` event replaces that wearer's entry (or adds one the caller may now see).
 * Before the first fetch there is nothing to merge into: the fetch brings the newest state anyway.
 */
export function mergeSummaryEvent(
  current: SummaryResponse | undefined,
  wearer: WearerSummary,
): SummaryResponse | undefined {
  if (current === undefined) return undefined;
  const index = current.wearers.findIndex((w) => w.uid === wearer.uid);
  const wearers =
    index === -1
      ? [...current.wearers, wearer]
      : current.wearers.map((w, i) => (i === index ? wearer : w));
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
