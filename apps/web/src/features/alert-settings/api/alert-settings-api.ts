import { type AlertSettingsPatch, listAlertSettings, updateAlertSetting } from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointKey, endpointQuery } from '../../../lib/endpoint';

const oneWearer = (uid: string) => ({ query: { uid } });

/** That wearer's settings if the caller may see them (personal users and staff alike), else null. */
export function useWearerAlertSettings(uid: string) {
  return useQuery({
    ...endpointQuery(listAlertSettings, oneWearer(uid)),
    select: (answer) => answer.settings.find((s) => s.uid === uid) ?? null,
  });
}

/** Saves the changed fields; the answer is the stored result, which the wearer's form reads at once. */
export function useSaveAlertSettings(clientId: string, uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: AlertSettingsPatch) =>
      call(updateAlertSetting, { params: { clientId }, body: { uid, ...patch } }),
    onSuccess: (res) => {
      const saved = res.settings.find((s) => s.uid === uid);
      if (saved)
        queryClient.setQueryData(endpointKey(listAlertSettings, oneWearer(uid)), {
          settings: [saved],
        });
    },
  });
}
