import { getResponseTimes } from '@wearable/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

export interface ResponseTimesParams {
  clientId: string;
  groupId?: string;
  /** One wearer (their monthly report). */
  uid?: string;
  /** First and last month, YYYY-MM (default: the last 12 months). */
  from?: string;
  to?: string;
}

/** Median and p90 from raised to notice, delivery and confirmation (last 12 months). */
export const responseTimesQuery = (p: ResponseTimesParams) =>
  queryOptions({ ...endpointQuery(getResponseTimes, { query: p }), staleTime: 60_000 });

/** The previous figures stay on screen while another group's load: the panel (and the focused picker) never unmounts. */
export const useResponseTimes = (p: ResponseTimesParams | null) =>
  useQuery({
    ...responseTimesQuery(p ?? { clientId: '' }),
    enabled: p !== null,
    placeholderData: keepPreviousData,
  });
