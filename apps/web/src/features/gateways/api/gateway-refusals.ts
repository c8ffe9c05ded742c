import { useQuery } from '@tanstack/react-query';
import { listGatewayRefusals } from '@wearable/domain';
import { endpointQuery } from '../../../lib/endpoint';

/** What the gateway sent lately that was refused, grouped by reason and serial (every kind). */
export const useGatewayRefusals = (gatewayId: string) =>
  useQuery({
    ...endpointQuery(listGatewayRefusals, { params: { gatewayId }, query: {} }),
    refetchInterval: 30_000,
  });
