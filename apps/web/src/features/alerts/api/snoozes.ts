import type { HandoverResponse, SnoozeBody, SnoozeView } from '@wearable/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';
import { ALERTS_KEY } from './alerts-api';

/** The shift windows the handover page offers (hours back from now; the API takes 1..24). */
export const HANDOVER_WINDOWS = [8, 12, 24] as const;
export type HandoverWindow = (typeof HANDOVER_WINDOWS)[number];

/** GET /v2/alert/handover: open alerts, snoozes and confirmations of the last `hours` (staff). */
export async function fetchHandover(hours: number): Promise<HandoverResponse> {
  return unwrap(await api.get<HandoverResponse>('/v2/alert/handover', { query: { hours } }));
}

/** Under the alerts key: a confirmation or a snooze refreshes the handover too. */
export function useHandover(hours: number) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'handover', hours],
    queryFn: () => fetchHandover(hours),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/** POST /v2/alert/snooze: one CAUTION or DEVICE_STATUS type of one wearer, at most 12 hours, with a reason. */
export function useSnoozeAlertType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SnoozeBody) =>
      unwrap(await api.post<SnoozeView>('/v2/alert/snooze', body)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

/** DELETE /v2/alert/snooze/{id}: end a snooze now. */
export function useEndSnooze() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (snoozeId: string) =>
      unwrap(await api.delete<SnoozeView>(`/v2/alert/snooze/${encodeURIComponent(snoozeId)}`)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}
