import { listAccessLog } from '@wearable/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

export interface AccessLogFilter {
  personId: string;
  actorId: string;
  /** Dates (YYYY-MM-DD) from the form; sent as the start of that day, `to` exclusive of the next. */
  from: string;
  to: string;
  page: number;
}

const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined);
const nextDay = (d: string) =>
  d ? new Date(new Date(`${d}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined;

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
