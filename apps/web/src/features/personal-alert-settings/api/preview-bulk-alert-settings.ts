import type { AlertSettingsBulkBody, AlertSettingsBulkPreview } from '@wearable/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** POST /v2/client/{clientId}/users/alertSettings/bulk/preview: how many wearers the change would change (writes nothing). */
export const usePreviewBulkAlertSettings = (clientId: string) =>
  useMutation({
    mutationFn: async (body: AlertSettingsBulkBody): Promise<AlertSettingsBulkPreview> =>
      unwrap(
        await api.post<AlertSettingsBulkPreview>(
          `/v2/client/${encodeURIComponent(clientId)}/users/alertSettings/bulk/preview`,
          body,
        ),
      ),
  });
