import { type AlertSettingsBulkBody, previewAlertSettingsBulk } from '@wearable/domain';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';

/** How many wearers the bulk change would change (writes nothing). */
export const usePreviewBulkAlertSettings = (clientId: string) =>
  useMutation({
    mutationFn: (body: AlertSettingsBulkBody) =>
      call(previewAlertSettingsBulk, { params: { clientId }, body }),
  });
