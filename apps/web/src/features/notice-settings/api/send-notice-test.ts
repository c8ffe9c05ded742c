import { listNotifications, type NoticeTestBody, sendNoticeTest } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** One SMS or call through the real provider; answers its outcome. */
export function useSendNoticeTest(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NoticeTestBody) => call(sendNoticeTest, { params: { groupId }, body }),
    // The attempt is in the notification log now.
    onSettled: () => invalidateEndpoints(queryClient, listNotifications),
  });
}
