import { type AlertPolicyPatch, updateAlertPolicy } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';
import { alertPolicyKey } from './get-alert-policy';

/** The settings changed, merged over the stored policy; answers the whole. */
export function useUpdateAlertPolicy(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: AlertPolicyPatch) =>
      call(updateAlertPolicy, { params: { organizationId }, body: patch }),
    onSuccess: (saved) => queryClient.setQueryData(alertPolicyKey(organizationId), saved),
  });
}
