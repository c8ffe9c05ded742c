import { getSitePlan } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { call } from './endpoint';

/**
 * The plan image of a site as an object URL for an <img> (fetched with the bearer token; the
 * server sends it with a fixed image type). `version` (the plan's sha256) refetches a new plan.
 * Shared by /settings/sites and /map.
 */
export function useSitePlanUrl(siteId: string, version: string | null): string | null {
  const query = useQuery({
    // Filed under the endpoint's id (invalidateEndpoints reaches it), then the plan's version.
    queryKey: [getSitePlan.id, { params: { siteId } }, version],
    queryFn: () => call(getSitePlan, { params: { siteId } }),
    enabled: version !== null,
    staleTime: Infinity,
  });
  const blob = query.data as Blob | undefined;
  const url = useMemo(
    () => (blob && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : null),
    [blob],
  );
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return version === null ? null : url;
}
