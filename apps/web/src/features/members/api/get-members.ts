import { getClient, listMembers } from '@wearable/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

export interface MembersFilter {
  clientId: string;
  q: string;
  page: number;
}

/** One page of an organisation's staff and its pending invitations. */
export const useMembers = ({ clientId, q, page }: MembersFilter) =>
  useQuery({
    ...endpointQuery(listMembers, { query: { clientId, q: q || undefined, page } }),
    placeholderData: keepPreviousData,
  });

/** The organisation's groups, for group managers (the organisation's one read, shared by every feature). */
export const useOrganizationGroups = (clientId: string) =>
  useQuery({ ...endpointQuery(getClient, { params: { id: clientId } }), select: (c) => c.groups });
