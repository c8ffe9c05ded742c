import type { AlertPolicyPatch, AlertPolicyResponse } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';
import { alertPolicyKey } from './get-alert-policy';

/** PATCH /v2/organization/{organizationId}/alertPolicy: the settings changed, merged over the stored policy; answers the whole. */
export function useUpdateAlertPolicy(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: AlertPolicyPatch) =>
      unwrap(
        await api.patch<AlertPolicyResponse>(
          `/v2/organization/${encodeURIComponent(organizationId)}/alertPolicy`,
          patch,
        ),
      ),
    onSuccess: (saved) => queryClient.setQueryData(alertPolicyKey(organizationId), saved),
  });
}
