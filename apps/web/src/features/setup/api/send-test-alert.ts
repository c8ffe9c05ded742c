import { getClientSetup, listAlerts, sendTestAlert } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** Opens a test alert for one wearer; the checklist and the alert lists then show it. */
export function useSendTestAlert(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uid: string) => call(sendTestAlert, { params: { id: clientId }, body: { uid } }),
    onSuccess: () => invalidateEndpoints(queryClient, getClientSetup, listAlerts),
  });
}
