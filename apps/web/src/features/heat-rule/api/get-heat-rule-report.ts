import { getHeatRuleReport } from '@wearable/domain';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

/** One month of the site under the heat rule. */
export const heatRuleReportQuery = (groupId: string, month: string) =>
  endpointQuery(getHeatRuleReport, { params: { groupId }, query: { month } });

export const useHeatRuleReport = (groupId: string, month: string) =>
  useQuery(heatRuleReportQuery(groupId, month));

/** Every cached heat-rule report (any site, any month) is read again. */
export const invalidateHeatRuleReports = (queryClient: QueryClient) =>
  invalidateEndpoints(queryClient, getHeatRuleReport);
