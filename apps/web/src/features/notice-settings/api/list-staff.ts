import type { Member, MembersResponse } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/user/organization/members?clientId=: the organisation's staff a recipient may be (first 200, by name). */
export const useOrganizationStaff = (clientId: string) =>
  useQuery({
    queryKey: ['notice-settings', 'staff', clientId],
    queryFn: async (): Promise<Member[]> =>
      unwrap(
        await api.get<MembersResponse>('/v2/user/organization/members', {
          query: { clientId, pageSize: 200 },
        }),
      ).members,
  });
