import type { ClientInfo, MembersResponse } from '@wearable/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

export interface MembersFilter {
  clientId: string;
  q: string;
  page: number;
}

/** GET /v2/user/organization/members: one page of an organisation's staff and its pending invitations. */
export const membersQueryOptions = ({ clientId, q, page }: MembersFilter) =>
  queryOptions({
    queryKey: ['members', clientId, q, page],
    queryFn: async () =>
      unwrap(
        await api.get<MembersResponse>('/v2/user/organization/members', {
          query: { clientId, q: q || undefined, page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const useMembers = (filter: MembersFilter) => useQuery(membersQueryOptions(filter));

/** GET /v2/client/{id}: the organisation's groups, for group managers. */
export const useOrganizationGroups = (clientId: string) =>
  useQuery({
    queryKey: ['client', clientId],
    queryFn: async () =>
      unwrap(await api.get<ClientInfo>(`/v2/client/${encodeURIComponent(clientId)}`)).groups,
  });
