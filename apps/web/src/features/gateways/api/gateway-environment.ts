import type { EnvironmentHistory } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/gateway/{gatewayId}/environment: temperature, humidity and WBGT of the last 24 hours (the server's default). */
export const gatewayEnvironmentQuery = (gatewayId: string) =>
  queryOptions({
    queryKey: ['gateway', gatewayId, 'environment'],
    queryFn: async () =>
      unwrap(
        await api.get<EnvironmentHistory>(
          `/v2/gateway/${encodeURIComponent(gatewayId)}/environment?points=144`,
        ),
      ),
    refetchInterval: 60_000,
  });

export const useGatewayEnvironment = (gatewayId: string) =>
  useQuery(gatewayEnvironmentQuery(gatewayId));
