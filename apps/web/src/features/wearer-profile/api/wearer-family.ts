import { listFamilyOfWearers } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The organisation's family members; those linked to this wearer. */
export const useWearerFamily = (clientId: string, uid: string) =>
  useQuery({
    ...endpointQuery(listFamilyOfWearers, { query: { clientId } }),
    select: (answer) => answer.users.filter((member) => member.wearers.some((w) => w.uid === uid)),
  });
