import { getDeviceHistory, type HistoryPoint } from '@wearable/domain';
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
  min: number;
  avg: number;
  max: number;
  count: number;
}

/** Min / average / max of one metric over the points that have a value; null when none has. */
export function summarise(
  points: readonly HistoryPoint[],
  metric: ChartMetric,
): MetricSummary | null {
  const values = points.map((p) => p[metric]).filter((v): v is number => typeof v === 'number');
  if (values.length === 0) return null;
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    min: Math.min(...values),
    avg: sum / values.length,
    max: Math.max(...values),
    count: values.length,
  };
}
