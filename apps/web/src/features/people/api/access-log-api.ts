import { listAccessLog } from '@wearable/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';
import { dayStart, nextDay } from './audit-api';

export interface AccessLogFilter {
  personId: string;
  actorId: string;
  /** Dates (YYYY-MM-DD) from the form; sent as the start of that day, `to` exclusive of the next. */
  from: string;
  to: string;
  page: number;
}

/** The query of the filter, for the page and for the CSV (which takes the same filters). */
export const accessLogQueryOf = (f: AccessLogFilter) => ({
  personId: f.personId || undefined,
  actorId: f.actorId || undefined,
  from: dayStart(f.from),
  to: nextDay(f.to),
});

/** One page of who read whose data (owners: their organisation). */
export const useAccessLog = (f: AccessLogFilter) =>
  useQuery({
    ...endpointQuery(listAccessLog, {
      query: { ...accessLogQueryOf(f), page: f.page, pageSize: 50 },
    }),
    placeholderData: keepPreviousData,
  });
