import type { InviteBody, PendingInvitation } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ProfileChangeError } from './change-error';
import { WEARER_PROFILE_KEY } from './person';

/** POST /v2/user/invite with role PERSONAL and this wearer: a family member gets a 7-day sign-up link by mail. */
export function useInviteFamily() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: InviteBody) => {
      const result = await api.post<PendingInvitation>('/v2/user/invite', body);
      if (!result.ok) throw new ProfileChangeError(result.status, result.data);
      return result.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEARER_PROFILE_KEY }),
  });
}
