import { listGateways } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The organisation's gateways (of one group) with their status. */
export const gatewaysQuery = (clientId: string, groupId?: string) =>
  queryOptions({
    ...endpointQuery(listGateways, {
      params: { clientId },
      query: groupId === undefined ? {} : { groupId },
    }),
    select: (answer) => answer.gateways,
    // Online/offline follows the batches.
    refetchInterval: 30_000,
  });

export const useGateways = (clientId: string, groupId?: string) =>
  useQuery(gatewaysQuery(clientId, groupId));
