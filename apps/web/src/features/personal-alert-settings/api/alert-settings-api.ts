import type { AlertSettingsPatch, WearerAlertSettings } from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

const KEY = ['personal-alert-settings'] as const;

/** GET /v2/user/alertSettings/list?uid=: that wearer's settings if the caller may see them (personal users and staff alike). */
export function useWearerAlertSettings(uid: string) {
  return useQuery({
    queryKey: [...KEY, uid],
    queryFn: async () => {
      const { settings } = unwrap(
        await api.get<{ settings: WearerAlertSettings[] }>('/v2/user/alertSettings/list', {
          query: { uid },
        }),
      );
      return settings.find((s) => s.uid === uid) ?? null;
    },
  });
}

/** PATCH /v2/client/{clientId}/user/alertSetting with the changed fields; the answer is the stored result. */
export function useSaveAlertSettings(clientId: string, uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: AlertSettingsPatch) =>
      unwrap(
        await api.patch<{ settings: WearerAlertSettings[] }>(
          `/v2/client/${encodeURIComponent(clientId)}/user/alertSetting`,
          {
            uid,
            ...patch,
          },
        ),
      ),
    onSuccess: (res) => {
      const saved = res.settings.find((s) => s.uid === uid);
      if (saved) queryClient.setQueryData([...KEY, uid], saved);
    },
  });
}
