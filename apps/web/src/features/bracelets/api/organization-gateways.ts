import { listGateways } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The gateways a bracelet may be paired through: the gateway list's own cached read. */
export const organizationGatewaysQuery = (clientId: string) =>
  queryOptions({
    ...endpointQuery(listGateways, { params: { clientId }, query: {} }),
    select: (answer) => answer.gateways,
  });

export const useOrganizationGateways = (clientId: string, enabled = true) =>
  useQuery({ ...organizationGatewaysQuery(clientId), enabled });
