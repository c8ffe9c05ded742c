import { type AlertNoticeSettingsBody, putNoticeSettings } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';
import { noticeSettingsKey } from './get-notice-settings';

/** Replaces the whole list in one transaction; answers the stored list. */
export function useSaveNoticeSettings(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertNoticeSettingsBody) =>
      call(putNoticeSettings, { params: { groupId }, body }),
    onSuccess: (saved) => queryClient.setQueryData(noticeSettingsKey(groupId), saved),
  });
}
