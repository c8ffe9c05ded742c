import { updateDeviceSetting } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, type CallInput } from '../../../lib/endpoint';
import { deviceSettingKey } from './device-setting';

/** Rename the bracelet or change its heart-rate duty cycle; a refusal is an ApiError. */
export function useUpdateDeviceSetting(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: CallInput<typeof updateDeviceSetting>['body']) =>
      call(updateDeviceSetting, { params: { uid }, body: patch }),
    onSuccess: (saved) => queryClient.setQueryData(deviceSettingKey(uid), saved),
  });
}
