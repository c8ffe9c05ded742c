import type { HeatRuleReport } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/group/{groupId}/heatRuleReport?month=: one month of the site under the heat rule. */
export const getHeatRuleReport = async (groupId: string, month: string): Promise<HeatRuleReport> =>
  unwrap(
    await api.get<HeatRuleReport>(`/v2/group/${encodeURIComponent(groupId)}/heatRuleReport`, {
      query: { month },
    }),
  );

/** Every heat-rule report query starts with this key. */
export const HEAT_RULE_REPORT_KEY = ['heatRuleReport'] as const;

export const heatRuleReportQuery = (groupId: string, month: string) =>
  queryOptions({
    queryKey: [...HEAT_RULE_REPORT_KEY, groupId, month],
    queryFn: () => getHeatRuleReport(groupId, month),
  });

export const useHeatRuleReport = (groupId: string, month: string) =>
  useQuery(heatRuleReportQuery(groupId, month));
