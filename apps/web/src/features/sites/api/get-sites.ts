import { listSites } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

export { useSitePlanUrl } from '../../../lib/use-plan-image';

/** The organisation's sites the caller sees, and its gateways with their places. */
export const useSites = (organizationId: string) =>
  useQuery(endpointQuery(listSites, { params: { organizationId } }));
