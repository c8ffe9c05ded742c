import { listSiteHeat } from '@wearable/domain';
import { queryOptions, useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

/** The live stream's `siteHeat` frame refreshes every site heat read. */
export const invalidateSiteHeat = (queryClient: QueryClient) =>
  invalidateEndpoints(queryClient, listSiteHeat);

/** The heat level of each site (gateway) the caller sees. */
export const siteHeatQuery = (clientId: string, groupId?: string) =>
  queryOptions({
    ...endpointQuery(listSiteHeat, {
      params: { clientId },
      query: groupId === undefined ? {} : { groupId },
    }),
    select: (answer) => answer.sites,
    // The live stream refreshes on every change; the poll covers a console without it.
    refetchInterval: 60_000,
  });

export const useSiteHeat = (clientId: string, groupId?: string) =>
  useQuery({ ...siteHeatQuery(clientId, groupId), enabled: clientId !== '' });

/** The sites of several organisations (a platform user's /devices), in one list. */
export function useSiteHeatOf(clientIds: readonly string[], groupId?: string) {
  return useQueries({
    queries: clientIds.map((clientId) => siteHeatQuery(clientId, groupId)),
    combine: (results) => results.flatMap((r) => r.data ?? []),
  });
}
