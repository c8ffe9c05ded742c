import {
  addPushSubscription,
  getPushKey,
  listPushSubscriptions,
  type PushSubscriptionBody,
  removePushSubscription,
} from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

/** One's browsers subscribed to alert notices by Web Push (/user/info). */
export const usePushSubscriptions = () => useQuery(endpointQuery(listPushSubscriptions));

/** The server's VAPID public key, read when this browser subscribes. */
export const fetchPushKey = () => call(getPushKey);

export function useSavePushSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PushSubscriptionBody) => call(addPushSubscription, { body }),
    onSettled: () => invalidateEndpoints(queryClient, listPushSubscriptions),
  });
}

export function useRemovePushSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string) =>
      call(removePushSubscription, { params: { subscriptionId } }),
    onSettled: () => invalidateEndpoints(queryClient, listPushSubscriptions),
  });
}
