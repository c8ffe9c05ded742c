import type { Person, UpdateUserRequest } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ProfileChangeError } from './change-error';
import { WEARER_PROFILE_KEY } from './person';

/** PATCH /v3/user/update: a wearer's name, birth date or group. */
export function useUpdateWearer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateUserRequest) => {
      const result = await api.patch<Person>('/v3/user/update', body);
      if (!result.ok) throw new ProfileChangeError(result.status, result.data);
      return result.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEARER_PROFILE_KEY }),
  });
}
