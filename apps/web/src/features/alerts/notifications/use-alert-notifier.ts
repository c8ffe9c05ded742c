import { ALERT_POLL_INTERVAL_MS, type AlertListResponse } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api';
import { ALERTS_KEY } from '../api/alerts-api';
import { decideNotification, readAlertMemo, writeAlertMemo } from './notification-rules';

export const UNCONFIRMED_COUNT_KEY = [...ALERTS_KEY, 'unconfirmed-count'] as const;

/** The number of unconfirmed alerts; a failed fetch (status >= 400) is logged only and counts as unknown. */
async function fetchUnconfirmedCount(): Promise<number | null> {
  const result = await api.get<AlertListResponse>('/v2/alert/list', { query: { notConfirmed: 'true', pageSize: 1 } });
  if (!result.ok) {
    console.warn(`Alert poll failed with status ${result.status}`);
    return null;
  }
  return typeof result.data.total === 'number' ? result.data.total : null;
}

/**
 * Polls the unconfirmed alerts every 20 s (live `alert` events invalidate the key at once) and calls
 * `announce(count)` when the rules say so; the memo in localStorage is shared by every tab.
 */
export function useAlertNotifier(enabled: boolean, announce: (count: number) => void): number | null {
  const query = useQuery({
    queryKey: UNCONFIRMED_COUNT_KEY,
    queryFn: fetchUnconfirmedCount,
    enabled,
    refetchInterval: ALERT_POLL_INTERVAL_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    retry: false,
  });
  const count = enabled ? (query.data ?? null) : null;
  const updatedAt = query.dataUpdatedAt;

  useEffect(() => {
    if (count === null) return;
    const decision = decideNotification(count, readAlertMemo(), Date.now());
    writeAlertMemo(decision.memo);
    if (decision.notify) announce(count);
    // Every fetch is a new chance to announce (same count after 5 min), hence updatedAt.
  }, [count, updatedAt, announce]);

  return count;
}
