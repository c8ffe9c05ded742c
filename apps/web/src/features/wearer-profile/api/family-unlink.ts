import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ProfileChangeError } from './change-error';
import { WEARER_PROFILE_KEY } from './person';

/** POST /v2/user/device/unlink/user: a family member stops watching this wearer. */
export function useUnlinkFamily() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { uid: string; wearerUid: string }) => {
      const result = await api.post<{ linked: boolean }>('/v2/user/device/unlink/user', body);
      if (!result.ok) throw new ProfileChangeError(result.status, result.data);
      return result.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEARER_PROFILE_KEY }),
  });
}
