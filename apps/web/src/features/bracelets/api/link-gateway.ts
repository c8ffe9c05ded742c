import type { BraceletView } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { BraceletChangeError } from './bracelet-change-error';
import { BRACELETS_KEY } from './device-setting';

export interface LinkGatewayInput {
  clientId: string;
  uid: string;
  gatewayId: string;
  serialNumber: string;
  deviceName?: string;
}

/** POST /v2/user/device/link/gateway: the pairing modal's start (paired once the gateway reports the bracelet). */
export function useLinkGateway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: LinkGatewayInput) => {
      const result = await api.post<{ device: BraceletView; isPaired: boolean }>(
        '/v2/user/device/link/gateway',
        body,
      );
      if (!result.ok) throw new BraceletChangeError(result.status, result.data);
      return result.data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: BRACELETS_KEY }),
  });
}
