import {
  type BatchConfirmResponse,
  batchConfirmAlerts,
  type ConfirmationInput,
  confirmAlert,
  getAlertTimeline,
  getHandover,
  getResponseTimes,
  type AlertListResponse,
  type LiveAlertEvent,
  listAlerts,
  listSnoozes,
} from '@wearable/domain';
import {
  hashKey,
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { call, endpointKey, invalidateEndpoints } from '../../../lib/endpoint';
import {
  UNCONFIRMED_COUNT_KEY,
  unconfirmedAfterEvent,
  type UnconfirmedAlerts,
} from '../notifications/use-alert-notifier';
import { type AlertListKey, listAfterEvent } from './alert-cache';
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

const isListKey = (input: unknown): input is AlertListKey =>
  typeof input === 'object' && input !== null && 'filters' in input && 'page' in input;

/**
 * A live `alert` event (issue 15 item 2): the cached alert-list pages and the notifier's
 * unconfirmed count take the alert from the event itself (an opened alert appears in the lists and
 * counts with no request); a page whose content the event cannot tell (an alert moving up from the
 * next page) and what the event does not carry (the alert's timeline, the handover, the response
 * times, the snoozes) are fetched again.
 */
export function applyAlertEvent(
  queryClient: QueryClient,
  event: LiveAlertEvent,
  now = Date.now(),
): Promise<unknown> {
  for (const [key, data] of queryClient.getQueriesData({ queryKey: [listAlerts.id] })) {
    if (data === undefined) continue;
    const input = key[1];
    let next: unknown;
    if (hashKey(key) === hashKey(UNCONFIRMED_COUNT_KEY))
      next = unconfirmedAfterEvent(data as UnconfirmedAlerts | null, event);
    else if (isListKey(input)) next = listAfterEvent(data as AlertListResponse, input, event, now);
    else next = null;
    if (next === null) void queryClient.invalidateQueries({ queryKey: key, exact: true });
    else if (next !== data) queryClient.setQueryData(key, next);
  }
  return invalidateEndpoints(
    queryClient,
    getAlertTimeline,
    getHandover,
    listSnoozes,
    getResponseTimes,
  );
}

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
