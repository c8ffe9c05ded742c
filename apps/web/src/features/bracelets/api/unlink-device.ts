import type { BraceletView } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { BraceletChangeError } from './bracelet-change-error';
import { BRACELETS_KEY } from './device-setting';

/** POST /v2/user/device/unlink: the bracelet leaves its wearer (their history stays theirs; it stays registered). */
export function useUnlinkDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (wearableId: string) => {
      const result = await api.post<{ device: BraceletView; isPaired: boolean }>(
        '/v2/user/device/unlink',
        { wearableId },
      );
      if (!result.ok) throw new BraceletChangeError(result.status, result.data);
      return result.data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: BRACELETS_KEY }),
  });
}
