import { type HeatProcedureBody, putHeatProcedure } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';
import { heatProcedureKey } from '../../../lib/use-heat-procedure';
import { invalidateHeatRuleReports } from './get-heat-rule-report';

/** Writes the site's procedure and nearest hospital; its reports (which print the procedure) read again. */
export function useSaveHeatProcedure(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: HeatProcedureBody) => call(putHeatProcedure, { params: { groupId }, body }),
    onSuccess: (data) => queryClient.setQueryData(heatProcedureKey(groupId), data),
    onSettled: () => invalidateHeatRuleReports(queryClient),
  });
}
