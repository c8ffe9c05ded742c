import { getSignInSettings, updateSignInSettings } from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

/** How the organisation's staff sign in (GET /v2/client/{id}/signInSettings; owners change it). */
export const useSignInSettings = (organizationId: string) =>
  useQuery(endpointQuery(getSignInSettings, { params: { id: organizationId } }));

export function useSaveSignInPolicy(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { requireSecondFactor: boolean; secondFactorGraceDays: number }) =>
      call(updateSignInSettings, { params: { id: organizationId }, body }),
    onSuccess: () => invalidateEndpoints(queryClient, getSignInSettings),
  });
}
