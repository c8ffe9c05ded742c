import { lookupUsers } from '@wearable/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

export const USERS_PAGE_SIZE = 50;

/** Anyone with a console account, across organisations (platform staff). */
export const lookupUsersQuery = (q: string, page: number) =>
  queryOptions({
    ...endpointQuery(lookupUsers, {
      query: { q: q || undefined, page, pageSize: USERS_PAGE_SIZE },
    }),
    placeholderData: keepPreviousData,
  });
export const useLookupUsers = (q: string, page: number) => useQuery(lookupUsersQuery(q, page));
