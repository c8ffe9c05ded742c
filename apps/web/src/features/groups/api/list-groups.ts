import type { GroupListResponse, GroupLiveState } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/client/{clientId}/groups: the groups the caller may read, with their live state. */
export const useGroups = (clientId: string) =>
  useQuery({
    queryKey: ['groups', clientId],
    queryFn: async (): Promise<GroupLiveState[]> =>
      unwrap(await api.get<GroupListResponse>(`/v2/client/${encodeURIComponent(clientId)}/groups`))
        .groups,
    // Live counts (not worn, offline, open alerts) move with the readings.
    refetchInterval: 30_000,
  });
