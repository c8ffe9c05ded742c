import {
  changeMemberRole,
  type ChangeMemberRoleBody,
  type InviteBody,
  inviteMember,
  listMembers,
  removeMember,
  resendInvitation,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** Every staff change refreshes the list (the page, the search and the pending invitations). */
function useMemberChange<I, T>(change: (input: I) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => invalidateEndpoints(queryClient, listMembers),
  });
}

export const useInviteMember = () =>
  useMemberChange((body: InviteBody) => call(inviteMember, { body }));
export const useResendInvitation = () =>
  useMemberChange((invitationId: string) => call(resendInvitation, { body: { invitationId } }));
export const useChangeMemberRole = () =>
  useMemberChange((body: ChangeMemberRoleBody) => call(changeMemberRole, { body }));
export const useRemoveMember = () =>
  useMemberChange(({ uid, clientId }: { uid: string; clientId: string }) =>
    call(removeMember, { query: { uid, clientId } }),
  );
