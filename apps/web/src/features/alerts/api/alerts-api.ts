import {
  type BatchConfirmResponse,
  batchConfirmAlerts,
  type ConfirmationInput,
  confirmAlert,
  getAlertTimeline,
  getHandover,
  getResponseTimes,
  listAlerts,
  listSnoozes,
} from '@wearable/domain';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { call, endpointKey, invalidateEndpoints } from '../../../lib/endpoint';
import { filtersToQuery, type AlertFilterState } from './alert-filters';

export const ALERT_PAGE_SIZE = 50;

/**
 * Every read an alert's change can alter: the lists (and the notifier's unconfirmed count, a list
 * too), timelines, the handover, the snoozes and the response times. A live `alert` event or a
 * confirmation refreshes them all.
 */
export const invalidateAlertViews = (queryClient: QueryClient) =>
  invalidateEndpoints(
    queryClient,
    listAlerts,
    getAlertTimeline,
    getHandover,
    listSnoozes,
    getResponseTimes,
  );

/** The alert list with the page's filters. */
export function useAlertList(filters: AlertFilterState, page: number, pageSize = ALERT_PAGE_SIZE) {
  return useQuery({
    // Filed under the list endpoint by the filters as chosen; the period ("last 7 days") is
    // resolved against the clock when the page is fetched, not in the key.
    queryKey: [...endpointKey(listAlerts), { filters, page, pageSize }],
    queryFn: () =>
      call(listAlerts, { query: { ...filtersToQuery(filters, Date.now()), page, pageSize } }),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/** Confirms one alert with an optional reason and note; then every alert view refetches. */
export function useConfirmAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { alertId: string } & ConfirmationInput) => call(confirmAlert, { body }),
    onSettled: () => invalidateAlertViews(queryClient),
  });
}

/** Confirms the selected ids with one reason and note for all. */
export function useBatchConfirm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { alertIds: string[] } & ConfirmationInput) =>
      call(batchConfirmAlerts, { body }),
    onSettled: () => invalidateAlertViews(queryClient),
  });
}

/** How many of a batch were confirmed now; the rest were confirmed already or not found. */
export const confirmedCount = (response: BatchConfirmResponse): number =>
  response.results.filter((r) => r.result === 'confirmed').length;
