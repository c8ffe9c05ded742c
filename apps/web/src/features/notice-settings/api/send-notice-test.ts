import type { NoticeTestBody, NoticeTestResponse } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** POST /v2/group/{groupId}/alertNoticeSettings/test: one SMS or call through the real provider; answers its outcome. */
export function useSendNoticeTest(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: NoticeTestBody) =>
      unwrap(
        await api.post<NoticeTestResponse>(
          `/v2/group/${encodeURIComponent(groupId)}/alertNoticeSettings/test`,
          body,
        ),
      ),
    // The attempt is in the notification log now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['notification-log'] }),
  });
}
