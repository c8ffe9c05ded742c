import type { UserLookupResponse } from '@wearable/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

export const USERS_PAGE_SIZE = 50;

/** GET /v2/users?q=&page=: anyone with a console account, across organisations (platform staff). */
export const lookupUsersQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: ['users', 'lookup', q, page],
    queryFn: async () =>
      unwrap(
        await api.get<UserLookupResponse>('/v2/users', {
          query: { q: q || undefined, page, pageSize: USERS_PAGE_SIZE },
        }),
      ),
    placeholderData: keepPreviousData,
  });
export const useLookupUsers = (q: string, page: number) => useQuery(lookupUsersQuery(q, page));
