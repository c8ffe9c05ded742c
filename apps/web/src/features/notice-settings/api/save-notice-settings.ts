import type { AlertNoticeSettingsBody, AlertNoticeSettingsResponse } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';
import { noticeSettingsKey } from './get-notice-settings';

/** PUT /v2/group/{groupId}/alertNoticeSettings: replaces the whole list in one transaction; answers the stored list. */
export function useSaveNoticeSettings(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlertNoticeSettingsBody) =>
      unwrap(
        await api.put<AlertNoticeSettingsResponse>(
          `/v2/group/${encodeURIComponent(groupId)}/alertNoticeSettings`,
          body,
        ),
      ),
    onSuccess: (saved) => queryClient.setQueryData(noticeSettingsKey(groupId), saved),
  });
}
