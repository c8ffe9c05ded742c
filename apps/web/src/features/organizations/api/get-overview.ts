import { getClientOverview } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** One organisation at a glance (groups, gateways with status, members, open alerts). */
export const useOrganizationOverview = (id: string) =>
  useQuery({ ...endpointQuery(getClientOverview, { params: { id } }), refetchInterval: 30_000 });
