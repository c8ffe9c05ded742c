import { getAlertTimeline } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The alert's story (staff); a confirmation refetches an open timeline too (invalidateAlertViews). */
export const alertTimelineQuery = (alertId: string) =>
  queryOptions({
    ...endpointQuery(getAlertTimeline, { params: { alertId } }),
    staleTime: 5_000,
  });

export function useAlertTimeline(alertId: string | null) {
  return useQuery({ ...alertTimelineQuery(alertId ?? ''), enabled: alertId !== null });
}
