import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';
import { WEARER_PROFILE_KEY } from './person';

/** GET /v2/client/{id}: the organisation's groups, for the profile's group choice. */
export const clientGroupsQuery = (clientId: string) =>
  queryOptions({
    queryKey: [...WEARER_PROFILE_KEY, 'groups', clientId],
    queryFn: async () =>
      unwrap(
        await api.get<{ groups: { id: string; name: string }[] }>(
          `/v2/client/${encodeURIComponent(clientId)}`,
        ),
      ).groups,
  });

export const useClientGroups = (clientId: string) => useQuery(clientGroupsQuery(clientId));
