import type { HeatProcedureBody, HeatProcedureResponse } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** PUT /v2/group/{groupId}/heatProcedure: the site's written procedure and nearest hospital. */
export const putHeatProcedure = async (
  groupId: string,
  body: HeatProcedureBody,
): Promise<HeatProcedureResponse> =>
  unwrap(
    await api.request<HeatProcedureResponse>(
      'PUT',
      `/v2/group/${encodeURIComponent(groupId)}/heatProcedure`,
      { body },
    ),
  );

export function useSaveHeatProcedure(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: HeatProcedureBody) => putHeatProcedure(groupId, body),
    onSuccess: (data) => queryClient.setQueryData(['heatProcedure', groupId], data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['heatRuleReport', groupId] }),
  });
}
