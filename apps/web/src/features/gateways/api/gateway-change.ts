import { getClientOverview, listClients, listGroups } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateEndpoints } from '../../../lib/endpoint';
import type { ApiResult } from '../../../lib/api-client';
import { MemberChangeError } from '../../members/api/member-changes';

/**
 * A gateway change: its answer, or the server's refusal for the form to show. The gateway lists, details and the
 * counts that include gateways (groups, organisations) are refreshed.
 */
export function useGatewayChange<I, T>(change: (input: I) => Promise<ApiResult<T>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: I) => {
      const result = await change(input);
      if (!result.ok) throw new MemberChangeError(result.status, result.data);
      return result.data;
    },
    onSuccess: async () => {
      await Promise.all(
        ['gateways', 'gateway'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
      );
      // Reads already declared by their contract (issue 15) are refreshed by endpoint.
      await invalidateEndpoints(queryClient, listGroups, listClients, getClientOverview);
    },
  });
}
