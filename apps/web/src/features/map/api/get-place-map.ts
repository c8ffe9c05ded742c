import { getPlaceMap, listSites } from '@wearable/domain';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

/** The specification's poll, the fallback when the live stream is not there. */
export const MAP_POLL_MS = 20_000;

/** An open map refetches at most this often while the live stream reports changes. */
export const MAP_LIVE_MS = 1_000;

/** Where every wearer the caller sees is now, with their open alert (one request). */
export const usePlaceMap = (organizationId: string) =>
  useQuery({
    ...endpointQuery(getPlaceMap, { params: { organizationId } }),
    refetchInterval: MAP_POLL_MS,
    // Each answer is new (its generatedAt) and the page decodes all of it again: comparing 10,000
    // rows with the last answer to keep unchanged ones (TanStack's structural sharing) is lost time.
    structuralSharing: false,
  });

/** The organisation's sites (plans) and where its gateways are placed. */
export const useMapSites = (organizationId: string) =>
  useQuery(endpointQuery(listSites, { params: { organizationId } }));

/** Every open map refetches (an alert opened or closed, someone moved). */
export const invalidatePlaceMap = (queryClient: QueryClient) =>
  invalidateEndpoints(queryClient, getPlaceMap);
