import { getIngestionStatus } from '@wearable/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** How often the console asks whether its organisation's data still arrives (two indexed reads). */
export const INGESTION_POLL_MS = 60_000;

export const ingestionStatusQuery = (clientId: string) =>
  queryOptions({
    ...endpointQuery(getIngestionStatus, { params: { clientId } }),
    refetchInterval: INGESTION_POLL_MS,
  });

/** The organisation's ingestion status; nothing for a user of no organisation (platform staff). */
export const useIngestionStatus = (clientId: string | null) =>
  useQuery({ ...ingestionStatusQuery(clientId ?? ''), enabled: clientId !== null });
