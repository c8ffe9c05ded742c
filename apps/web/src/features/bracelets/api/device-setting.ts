import { type DeviceSetting, getDeviceSetting } from '@wearable/domain';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { call, endpointKey, invalidateEndpoints } from '../../../lib/endpoint';

/** Every read of this feature: a pairing or unlink refreshes them all. */
export const invalidateBracelets = (queryClient: QueryClient) =>
  invalidateEndpoints(queryClient, getDeviceSetting);

export const deviceSettingKey = (uid: string) => endpointKey(getDeviceSetting, { params: { uid } });

/** The wearer's bracelet, or null when none is linked (404 DEVICE_NOT_LINKED). Other failures are errors. */
export const deviceSettingQuery = (uid: string) =>
  queryOptions({
    queryKey: deviceSettingKey(uid),
    queryFn: async (): Promise<DeviceSetting | null> => {
      try {
        return await call(getDeviceSetting, { params: { uid } });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404 && error.code === 'DEVICE_NOT_LINKED')
          return null;
        throw error;
      }
    },
    // A pending duty cycle turns applied when the gateway acknowledges it: look again now and then.
    refetchInterval: 30_000,
  });

export const useDeviceSetting = (uid: string) => useQuery(deviceSettingQuery(uid));
