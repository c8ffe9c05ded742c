import { getAlertPolicy } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointKey, endpointQuery } from '../../../lib/endpoint';

export const alertPolicyKey = (organizationId: string) =>
  endpointKey(getAlertPolicy, { params: { organizationId } });

/** The policy completed with the defaults, the defaults, who changed it last. */
export const useAlertPolicy = (organizationId: string) =>
  useQuery(endpointQuery(getAlertPolicy, { params: { organizationId } }));
