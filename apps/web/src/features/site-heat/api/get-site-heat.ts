import type { SiteHeatResponse, SiteHeatView } from '@wearable/domain';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** Every site heat query starts with this key; the live stream's `siteHeat` frame refreshes them all. */
export const SITE_HEAT_KEY = ['siteHeat'] as const;

/** GET /v2/client/{clientId}/siteHeat?groupId=: the heat level of each site (gateway) the caller sees. */
export const siteHeatQuery = (clientId: string, groupId?: string) =>
  queryOptions({
    queryKey: [...SITE_HEAT_KEY, clientId, groupId ?? null],
    queryFn: async (): Promise<SiteHeatView[]> => {
      const query = groupId === undefined ? {} : { query: { groupId } };
      return unwrap(
        await api.get<SiteHeatResponse>(
          `/v2/client/${encodeURIComponent(clientId)}/siteHeat`,
          query,
        ),
      ).sites;
    },
    // The live stream refreshes on every change; the poll covers a console without it.
    refetchInterval: 60_000,
  });

export const useSiteHeat = (clientId: string, groupId?: string) =>
  useQuery({ ...siteHeatQuery(clientId, groupId), enabled: clientId !== '' });

/** The sites of several organisations (a platform user's /devices), in one list. */
export function useSiteHeatOf(clientIds: readonly string[], groupId?: string): SiteHeatView[] {
  return useQueries({
    queries: clientIds.map((clientId) => siteHeatQuery(clientId, groupId)),
    combine: (results) => results.flatMap((r) => r.data ?? []),
  });
}
