import { endSnooze, getHandover, type SnoozeBody, snoozeAlertType } from '@wearable/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointQuery } from '../../../lib/endpoint';
import { invalidateAlertViews } from './alerts-api';

/** The shift windows the handover page offers (hours back from now; the API takes 1..24). */
export const HANDOVER_WINDOWS = [8, 12, 24] as const;
export type HandoverWindow = (typeof HANDOVER_WINDOWS)[number];

/** Open alerts, snoozes and confirmations of the last `hours` (staff); a confirmation or a snooze refreshes it. */
export function useHandover(hours: number) {
  return useQuery({
    ...endpointQuery(getHandover, { query: { hours } }),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/** One CAUTION or DEVICE_STATUS type of one wearer, at most 12 hours, with a reason. */
export function useSnoozeAlertType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SnoozeBody) => call(snoozeAlertType, { body }),
    onSettled: () => invalidateAlertViews(queryClient),
  });
}

/** Ends a snooze now. */
export function useEndSnooze() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (snoozeId: string) => call(endSnooze, { params: { snoozeId } }),
    onSettled: () => invalidateAlertViews(queryClient),
  });
}
