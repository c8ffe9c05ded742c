import { getGateway } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** Status, the bracelets behind it, the latest environment reading. */
export const gatewayQuery = (gatewayId: string) =>
  queryOptions({
    ...endpointQuery(getGateway, { params: { gatewayId } }),
    refetchInterval: 30_000,
  });

export const useGateway = (gatewayId: string) => useQuery(gatewayQuery(gatewayId));
