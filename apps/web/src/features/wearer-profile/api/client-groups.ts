import { getClient } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The organisation's groups, for the profile's group choice (the organisation's one read). */
export const useClientGroups = (clientId: string) =>
  useQuery({ ...endpointQuery(getClient, { params: { id: clientId } }), select: (c) => c.groups });
