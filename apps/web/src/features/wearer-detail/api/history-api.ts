import { getDeviceHistory, type HistoryResponse } from '@wearable/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, endpointKey } from '../../../lib/endpoint';

export const HISTORY_PERIODS = ['24h', '7d'] as const;
export type HistoryPeriod = (typeof HISTORY_PERIODS)[number];

const HOUR = 3_600_000;
/** 24 h in 5-minute buckets, 7 days in 30-minute buckets: enough detail, a few hundred points. */
const PERIOD: Record<HistoryPeriod, { ms: number; points: number }> = {
  '24h': { ms: 24 * HOUR, points: 288 },
  '7d': { ms: 7 * 24 * HOUR, points: 336 },
};
export const CHART_METRICS = ['heartRate', 'skinTemperature', 'wbgt'] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];

export function historyQuery(uid: string, period: HistoryPeriod, now: number) {
  const { ms, points } = PERIOD[period];
  return {
    uid,
    from: new Date(now - ms).toISOString(),
    to: new Date(now).toISOString(),
    points,
    metrics: CHART_METRICS.join(','),
  };
}

/** The wearer's history for the chart; the window ends when the request is made (not in the key). */
export function useHistory(uid: string, period: HistoryPeriod) {
  return useQuery({
    queryKey: [...endpointKey(getDeviceHistory), { chart: 'wearer-detail', uid, period }],
    queryFn: () => call(getDeviceHistory, { query: historyQuery(uid, period, Date.now()) }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export interface MetricSummary {
  /** Null where the rollups keep no minimum (skin temperature, WBGT): never one made up from averages. */
  min: number | null;
  avg: number | null;
  max: number;
}

/**
 * Min / average / max of one metric over the window, as the server measured them from the rollups (true extremes,
 * the mean of every reading); WBGT from its buckets' maxima (their max is the window's). Null when nothing was.
 */
export function summarise(
  history: HistoryResponse | undefined,
  metric: ChartMetric,
): MetricSummary | null {
  if (history === undefined) return null;
  switch (metric) {
    case 'heartRate':
      return history.summary.heartRate;
    case 'skinTemperature': {
      const temp = history.summary.skinTemperature;
      return temp === null ? null : { min: null, avg: temp.avg, max: temp.max };
    }
    case 'wbgt': {
      const values = history.points
        .map((p) => p.wbgt)
        .filter((v): v is number => typeof v === 'number');
      return values.length === 0 ? null : { min: null, avg: null, max: Math.max(...values) };
    }
  }
}

/** The window the history was asked for (the chart spans it, whatever the data covers). */
export const windowOf = (history: HistoryResponse | undefined) =>
  history === undefined
    ? undefined
    : { from: Date.parse(history.from), to: Date.parse(history.to) };
