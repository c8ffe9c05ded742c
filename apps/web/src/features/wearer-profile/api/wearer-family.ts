import type { FamilyMember } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';
import { WEARER_PROFILE_KEY } from './person';

/** GET /v2/user/lookup/associatedWithWearables?clientId=: family members; those linked to this wearer. */
export const wearerFamilyQuery = (clientId: string, uid: string) =>
  queryOptions({
    queryKey: [...WEARER_PROFILE_KEY, 'family', clientId, uid],
    queryFn: async () =>
      unwrap(
        await api.get<{ users: FamilyMember[] }>('/v2/user/lookup/associatedWithWearables', {
          query: { clientId },
        }),
      ).users.filter((member) => member.wearers.some((w) => w.uid === uid)),
  });

export const useWearerFamily = (clientId: string, uid: string) =>
  useQuery(wearerFamilyQuery(clientId, uid));
