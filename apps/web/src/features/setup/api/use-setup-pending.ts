import { getClientSetup, holds, type UserInfo } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/**
 * Whether the signed-in owner's organisation has not finished its setup checklist (the menu then
 * leads with it). Only for people of one organisation who run it (owners); false while unknown.
 */
export function useSetupPending(user: Pick<UserInfo, 'role' | 'mediromOrganizationId'> | null) {
  const organizationId = user?.mediromOrganizationId ?? null;
  const runsIt =
    user !== null &&
    organizationId !== null &&
    user.role === 'ORGANIZATION_OWNER' &&
    holds({ role: user.role }, 'organization:update');
  const progress = useQuery({
    ...endpointQuery(getClientSetup, { params: { id: organizationId ?? '' } }),
    enabled: runsIt,
    staleTime: 60_000,
  });
  return runsIt && progress.data?.done === false;
}
