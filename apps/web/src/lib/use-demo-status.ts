import { getDemoStatus } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from './endpoint';

/**
 * Whether the demo is in this database and whether the signed-in account is one of its accounts
 * (their password is published): the ribbon and the platform owner's "remove the demo" read it.
 */
export const useDemoStatus = (enabled = true) =>
  useQuery({ ...endpointQuery(getDemoStatus), enabled, staleTime: 5 * 60_000 });
