import { linkBraceletToGateway } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';
import { invalidateBracelets } from './device-setting';

export interface LinkGatewayInput {
  clientId: string;
  uid: string;
  gatewayId: string;
  serialNumber: string;
  deviceName?: string;
}

/** The pairing modal's start (paired once the gateway reports the bracelet); a refusal is an ApiError. */
export function useLinkGateway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LinkGatewayInput) => call(linkBraceletToGateway, { body }),
    onSettled: () => invalidateBracelets(queryClient),
  });
}
