import { useMutation, useQueryClient } from '@tanstack/react-query';
import { listUnknownDevices } from '@wearable/domain';
import { ApiError } from '../../../lib/api-client';
import { invalidateEndpoints } from '../../../lib/endpoint';
import { MemberChangeError } from '../../members/api/member-changes';

/**
 * A gateway change made with `call`: a refusal becomes the error the forms show (their field and
 * code messages), and the gateway lists, details and counts that include gateways are refreshed.
 */
export function useGatewayMutation<I, T>(change: (input: I) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: I) => {
      try {
        return await change(input);
      } catch (error) {
        if (error instanceof ApiError) throw new MemberChangeError(error.status, error.body);
        throw error;
      }
    },
    onSuccess: async () => {
      await Promise.all([
        ...['gateways', 'gateway', 'groups', 'organizations', 'organization-overview'].map((key) =>
          queryClient.invalidateQueries({ queryKey: [key] }),
        ),
        invalidateEndpoints(queryClient, listUnknownDevices),
      ]);
    },
  });
}
