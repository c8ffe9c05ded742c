import { type UpdateUserRequest, updatePerson } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';
import { WEARER_PROFILE_READS } from './person';

/** A wearer's name, birth date or group (a refusal is an ApiError whose issues name the fields). */
export function useUpdateWearer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserRequest) => call(updatePerson, { body }),
    onSuccess: () => invalidateEndpoints(queryClient, ...WEARER_PROFILE_READS),
  });
}
