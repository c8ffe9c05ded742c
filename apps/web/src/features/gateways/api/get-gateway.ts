import type { GatewayDetail } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/gateway/{gatewayId}: status, the bracelets behind it, the latest environment reading. */
export const gatewayQuery = (gatewayId: string) =>
  queryOptions({
    queryKey: ['gateway', gatewayId],
    queryFn: async () =>
      unwrap(await api.get<GatewayDetail>(`/v2/gateway/${encodeURIComponent(gatewayId)}`)),
    refetchInterval: 30_000,
  });

export const useGateway = (gatewayId: string) => useQuery(gatewayQuery(gatewayId));
