import type {
  ApiErrorBody,
  ChangeMemberRoleBody,
  InviteBody,
  Member,
  PendingInvitation,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { ApiResult } from '../../../lib/api-client';

/** A change's answer: ok, or the server's error body for the form to show. */
async function settle<T>(call: Promise<ApiResult<T>>): Promise<T> {
  const result = await call;
  if (!result.ok) throw new MemberChangeError(result.status, result.data);
  return result.data;
}

export class MemberChangeError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
  }
}

/** Every staff change refreshes the list (the page, the search and the pending invitations). */
function useMemberChange<I, T>(change: (input: I) => Promise<ApiResult<T>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => settle(change(input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['members'] }),
  });
}

/** POST /v2/user/invite. */
export const useInviteMember = () =>
  useMemberChange((body: InviteBody) => api.post<PendingInvitation>('/v2/user/invite', body));
/** POST /v2/user/invitation/resend. */
export const useResendInvitation = () =>
  useMemberChange((invitationId: string) =>
    api.post<PendingInvitation>('/v2/user/invitation/resend', { invitationId }),
  );
/** PATCH /v2/user/organization/members. */
export const useChangeMemberRole = () =>
  useMemberChange((body: ChangeMemberRoleBody) =>
    api.patch<Member>('/v2/user/organization/members', body),
  );
/** DELETE /v2/user/organization/members?uid=&clientId=. */
export const useRemoveMember = () =>
  useMemberChange(({ uid, clientId }: { uid: string; clientId: string }) =>
    api.delete<{ uid: string; removed: true }>('/v2/user/organization/members', {
      query: { uid, clientId },
    }),
  );
