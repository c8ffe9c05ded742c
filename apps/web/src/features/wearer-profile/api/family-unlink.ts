import { unlinkFamilyMember } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';
import { WEARER_PROFILE_READS } from './person';

/** A family member stops watching this wearer. */
export function useUnlinkFamily() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { uid: string; wearerUid: string }) => call(unlinkFamilyMember, { body }),
    onSuccess: () => invalidateEndpoints(queryClient, ...WEARER_PROFILE_READS),
  });
}
