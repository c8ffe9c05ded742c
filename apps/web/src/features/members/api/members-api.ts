import type { Member } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/user/organization/members: the organisation's staff. */
export function useMembers() {
  return useQuery({
    queryKey: ['members'],
    queryFn: async () => unwrap(await api.get<{ members: Member[] }>('/v2/user/organization/members')).members,
  });
}
