import { getWearerTrail, TRAIL_HOURS } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** A wearer's trail of the last 12 hours (positions and gateway stays), refreshed every minute. */
export const useWearerTrail = (uid: string, hours: number = TRAIL_HOURS.default) =>
  useQuery({
    ...endpointQuery(getWearerTrail, { params: { uid }, query: { hours } }),
    refetchInterval: 60_000,
  });
