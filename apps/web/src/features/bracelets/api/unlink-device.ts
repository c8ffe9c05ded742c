import { unlinkBracelet } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';
import { invalidateBracelets } from './device-setting';

/** The bracelet leaves its wearer (their history stays theirs; it stays registered). */
export function useUnlinkDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (wearableId: string) => call(unlinkBracelet, { body: { wearableId } }),
    onSettled: () => invalidateBracelets(queryClient),
  });
}
