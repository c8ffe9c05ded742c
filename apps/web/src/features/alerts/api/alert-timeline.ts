import type { AlertTimelineResponse } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';
import { ALERTS_KEY } from './alerts-api';

/** GET /v2/alert/{alertId}/timeline: the alert's story (staff). */
export async function fetchAlertTimeline(alertId: string): Promise<AlertTimelineResponse> {
  return unwrap(
    await api.get<AlertTimelineResponse>(`/v2/alert/${encodeURIComponent(alertId)}/timeline`),
  );
}

/** Under the alerts key: a confirmation refetches an open timeline too. */
export const alertTimelineQuery = (alertId: string) =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'timeline', alertId],
    queryFn: () => fetchAlertTimeline(alertId),
    staleTime: 5_000,
  });

export function useAlertTimeline(alertId: string | null) {
  return useQuery({ ...alertTimelineQuery(alertId ?? ''), enabled: alertId !== null });
}
