import type { GatewayListItem } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/client/{clientId}/gateways?groupId=: the organisation's gateways (of one group) with their status. */
export const gatewaysQuery = (clientId: string, groupId?: string) =>
  queryOptions({
    queryKey: ['gateways', clientId, groupId ?? null],
    queryFn: async (): Promise<GatewayListItem[]> => {
      const query = groupId === undefined ? '' : `?groupId=${encodeURIComponent(groupId)}`;
      return unwrap(
        await api.get<{ gateways: GatewayListItem[] }>(
          `/v2/client/${encodeURIComponent(clientId)}/gateways${query}`,
        ),
      ).gateways;
    },
    // Online/offline follows the batches.
    refetchInterval: 30_000,
  });

export const useGateways = (clientId: string, groupId?: string) =>
  useQuery(gatewaysQuery(clientId, groupId));
