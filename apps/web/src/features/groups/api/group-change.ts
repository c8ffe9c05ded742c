import { getClient, getClientOverview, listGroups } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateEndpoints } from '../../../lib/endpoint';

/**
 * A group change: its answer, or the server's refusal (ApiError) for the form to show. Every read
 * that lists the organisation's groups is refreshed: the groups with their live state, the
 * organisation with its groups (the group choices of members, people and the profile) and its overview.
 */
export function useGroupChange<I, T>(change: (input: I) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => invalidateEndpoints(queryClient, listGroups, getClient, getClientOverview),
  });
}
