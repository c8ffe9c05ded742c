import { getClient, getPerson, listFamilyOfWearers } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The reads a profile change refreshes: the person, their family, the organisation's groups. */
export const WEARER_PROFILE_READS = [getPerson, listFamilyOfWearers, getClient] as const;

/** The wearer as the caller reaches them (404 otherwise). */
export const usePerson = (uid: string) => useQuery(endpointQuery(getPerson, { params: { uid } }));
