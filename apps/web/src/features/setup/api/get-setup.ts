import { getClientSetup, listWearers } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The organisation's setup checklist; live while it is open (steps are done on other pages). */
export const useSetupProgress = (clientId: string | null) =>
  useQuery({
    ...endpointQuery(getClientSetup, { params: { id: clientId ?? '' } }),
    enabled: clientId !== null,
    refetchInterval: 10_000,
  });

/** The organisation's wearers, to choose the one a test alert is for. */
export const useSetupWearers = (clientId: string | null, enabled: boolean) =>
  useQuery({
    ...endpointQuery(listWearers, { query: { clientId: clientId ?? '' } }),
    enabled: clientId !== null && enabled,
    select: (answer) => answer.devices,
  });
