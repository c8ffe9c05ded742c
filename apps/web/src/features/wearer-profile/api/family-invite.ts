import { type InviteBody, inviteMember } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';
import { WEARER_PROFILE_READS } from './person';

/** An invitation with role PERSONAL and this wearer: a family member gets a 7-day sign-up link by mail. */
export function useInviteFamily() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteBody) => call(inviteMember, { body }),
    onSuccess: () => invalidateEndpoints(queryClient, ...WEARER_PROFILE_READS),
  });
}
