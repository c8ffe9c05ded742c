import type { AlertNoticeSettingsResponse } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

export const noticeSettingsKey = (groupId: string) => ['notice-settings', groupId] as const;

/** GET /v2/group/{groupId}/alertNoticeSettings: the group's recipients, its name and organisation. */
export const useNoticeSettings = (groupId: string) =>
  useQuery({
    queryKey: noticeSettingsKey(groupId),
    queryFn: async () =>
      unwrap(
        await api.get<AlertNoticeSettingsResponse>(
          `/v2/group/${encodeURIComponent(groupId)}/alertNoticeSettings`,
        ),
      ),
  });
