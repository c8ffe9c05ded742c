import { getGatewayEnvironment } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** Temperature, humidity and WBGT of the last 24 hours (the server's default), 144 points. */
export const gatewayEnvironmentQuery = (gatewayId: string) =>
  queryOptions({
    ...endpointQuery(getGatewayEnvironment, { params: { gatewayId }, query: { points: 144 } }),
    refetchInterval: 60_000,
  });

export const useGatewayEnvironment = (gatewayId: string) =>
  useQuery(gatewayEnvironmentQuery(gatewayId));
