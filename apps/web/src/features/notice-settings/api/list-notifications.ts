import type { NotificationsResponse } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/notifications: the newest messages of the log the caller may see (tests, alert notices, own mails). */
export const useNotificationLog = (pageSize: number) =>
  useQuery({
    queryKey: ['notification-log', pageSize],
    queryFn: async () =>
      unwrap(
        await api.get<NotificationsResponse>('/v2/notifications', { query: { page: 1, pageSize } }),
      ),
  });
