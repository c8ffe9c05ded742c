import { listGroups } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The groups a new site may belong to (those the caller reads; the server checks who manages). */
export const useSiteGroups = (clientId: string) =>
  useQuery(endpointQuery(listGroups, { params: { clientId } }));
