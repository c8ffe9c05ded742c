import { getDeviceHistory, getMonthlyReport } from '@wearable/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { call, endpointKey, endpointQuery } from '../../../lib/endpoint';

export const RECORD_PERIODS = ['day', 'week', 'month'] as const;
export type RecordPeriod = (typeof RECORD_PERIODS)[number];

const MINUTE = 60_000;
/**
 * Each period's window and bucket size: minutes for a day (sleep stages counted to the minute),
 * 5 minutes for a week, 30 for a month — at most 2,016 points, well under the server's 5,000.
 */
const PERIODS: Record<RecordPeriod, { minutes: number; bucketMinutes: number }> = {
  day: { minutes: 24 * 60, bucketMinutes: 1 },
  week: { minutes: 7 * 24 * 60, bucketMinutes: 5 },
  month: { minutes: 30 * 24 * 60, bucketMinutes: 30 },
};
export const RECORD_METRICS = [
  'heartRate',
  'skinTemperature',
  'sleepStage',
  'stressLevel',
  'steps',
] as const;

export const bucketMinutesOf = (period: RecordPeriod): number => PERIODS[period].bucketMinutes;

/** The query of the history endpoint for a period ending at `now`; the server buckets by ceil(span / points). */
export function recordHistoryQuery(uid: string, period: RecordPeriod, now: number) {
  const { minutes, bucketMinutes } = PERIODS[period];
  return {
    uid,
    from: new Date(now - minutes * MINUTE).toISOString(),
    to: new Date(now).toISOString(),
    points: minutes / bucketMinutes,
    metrics: RECORD_METRICS.join(','),
  };
}

/**
 * The wearer's history over the period. `seenAt` is when the wearer was last heard (the live
 * summary): when it moves, new readings have been rolled up, so the history is asked again at once
 * instead of at the next minute's refetch (a page opened just before a flush showed nothing).
 */
export function useRecordHistory(uid: string, period: RecordPeriod, seenAt?: string | null) {
  const history = useQuery({
    // Filed under the history endpoint by the period as chosen; the window is resolved against the
    // clock when the page is fetched, not in the key.
    queryKey: [...endpointKey(getDeviceHistory), { chart: 'records', uid, period }],
    queryFn: () => call(getDeviceHistory, { query: recordHistoryQuery(uid, period, Date.now()) }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  const { refetch } = history;
  const seen = useRef(seenAt);
  useEffect(() => {
    if (seenAt === seen.current) return;
    seen.current = seenAt;
    if (seenAt) void refetch();
  }, [seenAt, refetch]);
  return history;
}

/** YYYY-MM of a moment in the browser's zone (the person looks at "this month" where they are). */
export function monthOf(now: Date): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

export function useMonthlyReport(uid: string, month: string) {
  return useQuery({
    ...endpointQuery(getMonthlyReport, { query: { uid, month } }),
    staleTime: 60_000,
  });
}
