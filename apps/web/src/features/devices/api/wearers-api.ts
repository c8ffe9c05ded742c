import type { WearerListItem, WearerSort } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/user/device/list: the wearers the caller may see (of one group with groupId). */
export function useWearers(sort: WearerSort, groupId?: string) {
  return useQuery({
    queryKey: ['wearers', sort, groupId ?? null],
    queryFn: async () =>
      unwrap(
        await api.get<{ devices: WearerListItem[] }>('/v2/user/device/list', {
          query: { sort, groupId },
        }),
      ).devices,
  });
}

/** Name order in the reader's language; the server sorts too, this keeps the table honest. */
export function sortWearers(
  wearers: readonly WearerListItem[],
  sort: WearerSort,
  locale: string,
): WearerListItem[] {
  const collator = new Intl.Collator(locale);
  const sorted = [...wearers].sort((a, b) => collator.compare(a.name, b.name));
  return sort === 'name_desc' ? sorted.reverse() : sorted;
}
