import { type FamilyNoticeChannel, listFamilyNotices, updateFamilyNotice } from '@wearable/domain';
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
