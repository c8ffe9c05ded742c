import { AUDIT_KINDS, listAuditEntries } from '@wearable/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

export interface AuditFilter {
  kind: string;
  actorId: string;
  /** Dates (YYYY-MM-DD) from the form; sent as the start of that day, `to` exclusive of the next. */
  from: string;
  to: string;
  page: number;
}

/** A form's date (YYYY-MM-DD) as the start of that local day; `nextDay`: the start of the next (an exclusive end). */
export const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined);
export const nextDay = (d: string) =>
  d ? new Date(new Date(`${d}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined;

/** One page of the log (the server picks the caller's organisation for owners). */
export const useAudit = (f: AuditFilter) =>
  useQuery({
    ...endpointQuery(listAuditEntries, {
      query: {
        kind: AUDIT_KINDS.find((kind) => kind === f.kind),
        actorId: f.actorId || undefined,
        from: dayStart(f.from),
        to: nextDay(f.to),
        page: f.page,
        pageSize: 50,
      },
    }),
    placeholderData: keepPreviousData,
  });
