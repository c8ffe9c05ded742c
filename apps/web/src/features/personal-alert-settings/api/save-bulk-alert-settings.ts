import type { AlertSettingsBulkBody, WearerAlertSettings } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** PATCH /v2/client/{clientId}/users/alertSettings/bulk: the same change to every wearer given, all or nothing. */
export function useSaveBulkAlertSettings(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlertSettingsBulkBody): Promise<WearerAlertSettings[]> =>
      unwrap(
        await api.patch<{ settings: WearerAlertSettings[] }>(
          `/v2/client/${encodeURIComponent(clientId)}/users/alertSettings/bulk`,
          body,
        ),
      ).settings,
    // Lists of this organisation and group, and each wearer's own form, read the stored settings again.
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['alert-settings'] });
      await queryClient.invalidateQueries({ queryKey: ['personal-alert-settings'] });
    },
  });
}
