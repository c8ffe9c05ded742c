import type {
  AlertListResponse,
  BatchConfirmResponse,
  ConfirmationInput,
  ConfirmOutcome,
} from '@wearable/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';
import { filtersToQuery, type AlertFilterState } from './alert-filters';

/** Every alert query lives under this key, so one invalidation refreshes lists, badges and the notifier. */
export const ALERTS_KEY = ['alerts'] as const;
export const ALERT_PAGE_SIZE = 50;

/** GET /v2/alert/list with the page's filters. */
export function useAlertList(filters: AlertFilterState, page: number, pageSize = ALERT_PAGE_SIZE) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'list', filters, page, pageSize],
    queryFn: async () =>
      unwrap(
        await api.get<AlertListResponse>('/v2/alert/list', {
          query: { ...filtersToQuery(filters, Date.now()), page, pageSize },
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/** POST /v2/alert/confirm with an optional reason and note; then every alert view refetches. */
export function useConfirmAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { alertId: string } & ConfirmationInput) =>
      unwrap(
        await api.post<{ alertId: string; result: ConfirmOutcome }>('/v2/alert/confirm', body),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

/** POST /v2/alert/batchConfirm with the selected ids, and one reason and note for all. */
export function useBatchConfirm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { alertIds: string[] } & ConfirmationInput) =>
      unwrap(await api.post<BatchConfirmResponse>('/v2/alert/batchConfirm', body)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

/** How many of a batch were confirmed now; the rest were confirmed already or not found. */
export const confirmedCount = (response: BatchConfirmResponse): number =>
  response.results.filter((r) => r.result === 'confirmed').length;
