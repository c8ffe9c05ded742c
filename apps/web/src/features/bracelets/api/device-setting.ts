import type { DeviceSetting } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** Every query of this feature lives under this key: a pairing or unlink refreshes them all. */
export const BRACELETS_KEY = ['bracelets'] as const;

/**
 * GET /v2/user/{uid}/device/setting: the wearer's bracelet, or null when none is linked (404 DEVICE_NOT_LINKED).
 * Other failures are errors.
 */
export const deviceSettingQuery = (uid: string) =>
  queryOptions({
    queryKey: [...BRACELETS_KEY, 'setting', uid],
    queryFn: async (): Promise<DeviceSetting | null> => {
      const result = await api.get<DeviceSetting>(
        `/v2/user/${encodeURIComponent(uid)}/device/setting`,
      );
      const code = (result.data as { code?: unknown } | null)?.code;
      if (!result.ok && result.status === 404 && code === 'DEVICE_NOT_LINKED') return null;
      return unwrap(result);
    },
    // A pending duty cycle turns applied when the gateway acknowledges it: look again now and then.
    refetchInterval: 30_000,
  });

export const useDeviceSetting = (uid: string) => useQuery(deviceSettingQuery(uid));
