import type { ResponseTimesResponse } from '@wearable/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

export interface ResponseTimesParams {
  clientId: string;
  groupId?: string;
  /** One wearer (their monthly report). */
  uid?: string;
  /** First and last month, YYYY-MM (default: the last 12 months). */
  from?: string;
  to?: string;
}

/** GET /v2/alert/responseTimes: median and p90 from raised to notice, delivery and confirmation (last 12 months). */
export const getResponseTimes = async (p: ResponseTimesParams): Promise<ResponseTimesResponse> =>
  unwrap(await api.get<ResponseTimesResponse>('/v2/alert/responseTimes', { query: { ...p } }));

export const responseTimesQuery = (p: ResponseTimesParams) =>
  queryOptions({
    queryKey: ['alerts', 'responseTimes', p],
    queryFn: () => getResponseTimes(p),
    staleTime: 60_000,
  });

/** The previous figures stay on screen while another group's load: the panel (and the focused picker) never unmounts. */
export const useResponseTimes = (p: ResponseTimesParams | null) =>
  useQuery({
    ...responseTimesQuery(p ?? { clientId: '' }),
    enabled: p !== null,
    placeholderData: keepPreviousData,
  });
