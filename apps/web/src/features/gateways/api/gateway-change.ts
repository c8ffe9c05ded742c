import { useMutation, useQueryClient } from '@tanstack/react-query';
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
        ['gateways', 'gateway', 'groups', 'organizations', 'organization-overview'].map((key) =>
          queryClient.invalidateQueries({ queryKey: [key] }),
        ),
      );
    },
  });
}
