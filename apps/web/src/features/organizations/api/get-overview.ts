import type { ClientOverview } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/client/{id}/overview: one organisation at a glance (groups, gateways with status, members, open alerts). */
export const organizationOverviewQuery = (id: string) =>
  queryOptions({
    queryKey: ['organization-overview', id],
    queryFn: async () =>
      unwrap(await api.get<ClientOverview>(`/v2/client/${encodeURIComponent(id)}/overview`)),
    refetchInterval: 30_000,
  });

export const useOrganizationOverview = (id: string) => useQuery(organizationOverviewQuery(id));
