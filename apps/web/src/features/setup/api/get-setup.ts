import { getClientSetup, listWearers } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** While a test alert waits for its confirmation, the checklist asks this often (ms). */
const AWAITING_CONFIRMATION_MS = 2_000;

/**
 * The organisation's setup checklist; live while it is open (steps are done on other pages), read
 * again each time it is opened (the menu's copy may be a minute old), and every 2 s while a test
 * alert waits to be confirmed, so the last step turns done without a reload.
 */
export const useSetupProgress = (clientId: string | null) =>
  useQuery({
    ...endpointQuery(getClientSetup, { params: { id: clientId ?? '' } }),
    enabled: clientId !== null,
    refetchOnMount: 'always',
    refetchInterval: (query) => {
      const last = query.state.data?.lastTestAlert;
      return last && !last.confirmed ? AWAITING_CONFIRMATION_MS : 10_000;
    },
  });

/** The organisation's wearers, to choose the one a test alert is for. */
export const useSetupWearers = (clientId: string | null, enabled: boolean) =>
  useQuery({
    ...endpointQuery(listWearers, { query: { clientId: clientId ?? '' } }),
    enabled: clientId !== null && enabled,
    select: (answer) => answer.devices,
  });
