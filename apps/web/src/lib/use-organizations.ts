import { listClients } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from './endpoint';

/** Every organisation the caller may see (platform roles: all of them). */
export const useOrganizations = () =>
  useQuery({ ...endpointQuery(listClients), select: (answer) => answer.clients });
