import type { Person } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** Every query of this feature, so a change refreshes them together. */
export const WEARER_PROFILE_KEY = ['wearer-profile'] as const;

/** GET /v2/user/{uid}: the wearer as the caller reaches them (404 otherwise). */
export const personQuery = (uid: string) =>
  queryOptions({
    queryKey: [...WEARER_PROFILE_KEY, 'person', uid],
    queryFn: async () => unwrap(await api.get<Person>(`/v2/user/${encodeURIComponent(uid)}`)),
  });

export const usePerson = (uid: string) => useQuery(personQuery(uid));
