import { getHeatProcedure } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointKey, endpointQuery } from './endpoint';

export const heatProcedureKey = (groupId: string) =>
  endpointKey(getHeatProcedure, { params: { groupId } });

/** The site's heat procedure, nearest hospital and named contacts. */
export const heatProcedureQuery = (groupId: string) =>
  queryOptions({ ...endpointQuery(getHeatProcedure, { params: { groupId } }), staleTime: 60_000 });

export const useHeatProcedure = (groupId: string | null) =>
  useQuery({ ...heatProcedureQuery(groupId ?? ''), enabled: groupId !== null });
