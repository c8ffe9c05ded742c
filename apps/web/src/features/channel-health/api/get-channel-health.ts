import { getChannelHealth } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** How often an open settings page reads the channels again (the server's sweep runs each minute). */
export const CHANNEL_HEALTH_REFRESH_MS = 60_000;

/** Each channel's last delivery, last failure and its reason (GET channelHealth). */
export const useChannelHealth = (organizationId: string) =>
  useQuery({
    ...endpointQuery(getChannelHealth, { params: { organizationId } }),
    refetchInterval: CHANNEL_HEALTH_REFRESH_MS,
  });
