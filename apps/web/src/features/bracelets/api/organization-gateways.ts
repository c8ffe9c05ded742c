import type { GatewayListItem } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';
import { BRACELETS_KEY } from './device-setting';

/** GET /v2/client/{clientId}/gateways: the gateways a bracelet may be paired through. */
export const organizationGatewaysQuery = (clientId: string) =>
  queryOptions({
    queryKey: [...BRACELETS_KEY, 'gateways', clientId],
    queryFn: async () =>
      unwrap(
        await api.get<{ gateways: GatewayListItem[] }>(
          `/v2/client/${encodeURIComponent(clientId)}/gateways`,
        ),
      ).gateways,
  });

export const useOrganizationGateways = (clientId: string, enabled = true) =>
  useQuery({ ...organizationGatewaysQuery(clientId), enabled });
