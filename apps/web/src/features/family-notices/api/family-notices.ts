import {
  deleteFamilyLine,
  familyLineCode,
  type FamilyNoticeChannel,
  listFamilyNotices,
  updateFamilyNotice,
} from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

/** The signed-in family member's choice per watched wearer, and their phone number and mail address. */
export const useFamilyNotices = () => useQuery(endpointQuery(listFamilyNotices));

/** Chooses SMS, mail or nothing for one watched wearer; the list is read again after. */
export function useSaveFamilyNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { uid: string; channel: FamilyNoticeChannel | null }) =>
      call(updateFamilyNotice, { params: { uid: input.uid }, body: { channel: input.channel } }),
    onSettled: () => invalidateEndpoints(queryClient, listFamilyNotices),
  });
}

/** A one-time code to send to the organisation's LINE official account (links that LINE user). */
export function useFamilyLineCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(familyLineCode),
    onSettled: () => invalidateEndpoints(queryClient, listFamilyNotices),
  });
}

/** Removes the LINE link (wearers told by LINE are told by nothing until chosen again). */
export function useUnlinkFamilyLine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(deleteFamilyLine),
    onSettled: () => invalidateEndpoints(queryClient, listFamilyNotices),
  });
}
