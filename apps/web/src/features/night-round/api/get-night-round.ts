import { getNightRound } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** How often the sheet reads the residents' states again while it is open. */
export const NIGHT_ROUND_REFRESH_MS = 60_000;

/** A group's round sheet of the night under way. */
export const nightRoundQuery = (groupId: string) =>
  endpointQuery(getNightRound, { params: { groupId }, query: {} });

export const useNightRound = (groupId: string) =>
  useQuery({ ...nightRoundQuery(groupId), refetchInterval: NIGHT_ROUND_REFRESH_MS });
