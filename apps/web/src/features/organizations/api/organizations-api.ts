import type { ClientSummary } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/client: every organisation (platform roles). */
export function useOrganizations() {
  return useQuery({
    queryKey: ['organizations'],
    queryFn: async () => unwrap(await api.get<{ clients: ClientSummary[] }>('/v2/client')).clients,
  });
}
