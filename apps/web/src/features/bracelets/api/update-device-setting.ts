import type { DeviceSetting } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { BraceletChangeError } from './bracelet-change-error';
import { BRACELETS_KEY } from './device-setting';

/** PATCH /v2/user/{uid}/device/setting: rename the bracelet or change its heart-rate duty cycle. */
export function useUpdateDeviceSetting(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: { deviceName?: string; heartRateDutyCycle?: number }) => {
      const result = await api.patch<DeviceSetting>(
        `/v2/user/${encodeURIComponent(uid)}/device/setting`,
        patch,
      );
      if (!result.ok) throw new BraceletChangeError(result.status, result.data);
      return result.data;
    },
    onSuccess: (saved) => queryClient.setQueryData([...BRACELETS_KEY, 'setting', uid], saved),
  });
}
