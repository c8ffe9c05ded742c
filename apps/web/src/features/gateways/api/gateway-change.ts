import {
  getClientOverview,
  getGateway,
  listClients,
  listGateways,
  listGroups,
  listUnknownDevices,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateEndpoints } from '../../../lib/endpoint';

/**
 * A gateway change made with `call`: its answer, or the server's refusal (ApiError) for the form to
 * show. The gateway lists and details, the unknown devices and the counts that include gateways
 * (groups, organisations) are refreshed.
 */
export function useGatewayChange<I, T>(change: (input: I) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () =>
      invalidateEndpoints(
        queryClient,
        listGateways,
        getGateway,
        listUnknownDevices,
        listGroups,
        listClients,
        getClientOverview,
      ),
  });
}
