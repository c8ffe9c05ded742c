import {
  type AlertSettingsBulkBody,
  listAlertSettings,
  updateAlertSettingsBulk,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** The same change to every wearer given, all or nothing. */
export function useSaveBulkAlertSettings(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlertSettingsBulkBody) =>
      (await call(updateAlertSettingsBulk, { params: { clientId }, body })).settings,
    // Lists of this organisation and group, and each wearer's own form, read the stored settings again.
    onSuccess: () => invalidateEndpoints(queryClient, listAlertSettings),
  });
}
