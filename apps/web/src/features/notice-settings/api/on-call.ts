import {
  addOnCallOverride,
  getOnCall,
  type OnCallOverrideBody,
  type OnCallResponse,
  type OnCallRota,
  putOnCallRota,
  removeOnCallOverride,
} from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointKey, endpointQuery } from '../../../lib/endpoint';

const onCallKey = (groupId: string) => endpointKey(getOnCall, { params: { groupId } });

/** The group's rota, overrides to come, and who is on call now and next (refreshed each minute). */
export const useOnCall = (groupId: string) =>
  useQuery({ ...endpointQuery(getOnCall, { params: { groupId } }), refetchInterval: 60_000 });

/** Each change answers the whole view, which replaces the cached one. */
function useOnCallChange<V>(groupId: string, run: (v: V) => Promise<OnCallResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (view) => queryClient.setQueryData(onCallKey(groupId), view),
  });
}

export const usePutOnCallRota = (groupId: string) =>
  useOnCallChange(groupId, (rota: OnCallRota | null) =>
    call(putOnCallRota, { params: { groupId }, body: { rota } }),
  );

export const useAddOnCallOverride = (groupId: string) =>
  useOnCallChange(groupId, (body: OnCallOverrideBody) =>
    call(addOnCallOverride, { params: { groupId }, body }),
  );

export const useRemoveOnCallOverride = (groupId: string) =>
  useOnCallChange(groupId, (overrideId: string) =>
    call(removeOnCallOverride, { params: { groupId, overrideId } }),
  );
