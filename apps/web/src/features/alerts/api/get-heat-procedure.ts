import type { HeatProcedureResponse } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** GET /v2/group/{groupId}/heatProcedure: the site's heat procedure, nearest hospital and named contacts. */
export const getHeatProcedure = async (groupId: string): Promise<HeatProcedureResponse> =>
  unwrap(
    await api.get<HeatProcedureResponse>(`/v2/group/${encodeURIComponent(groupId)}/heatProcedure`),
  );

export const heatProcedureQuery = (groupId: string) =>
  queryOptions({
    queryKey: ['heatProcedure', groupId],
    queryFn: () => getHeatProcedure(groupId),
    staleTime: 60_000,
  });

export const useHeatProcedure = (groupId: string | null) =>
  useQuery({ ...heatProcedureQuery(groupId ?? ''), enabled: groupId !== null });
