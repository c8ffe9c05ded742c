import { listMembers } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The organisation's staff a recipient may be (first 200, by name). */
export const useOrganizationStaff = (clientId: string) =>
  useQuery({
    ...endpointQuery(listMembers, { query: { clientId, pageSize: 200 } }),
    select: (answer) => answer.members,
  });
