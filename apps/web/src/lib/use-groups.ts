import { listGroups } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from './endpoint';

/** The groups the caller may read, with their live state. */
export const useGroups = (clientId: string) =>
  useQuery({
    ...endpointQuery(listGroups, { params: { clientId } }),
    select: (answer) => answer.groups,
    // Live counts (not worn, offline, open alerts) move with the readings.
    refetchInterval: 30_000,
  });
