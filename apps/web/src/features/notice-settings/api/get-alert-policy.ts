import type { AlertPolicyResponse } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

export const alertPolicyKey = (organizationId: string) => ['alert-policy', organizationId] as const;

/** GET /v2/organization/{organizationId}/alertPolicy: the policy completed with the defaults, the defaults, who changed it last. */
export const useAlertPolicy = (organizationId: string) =>
  useQuery({
    queryKey: alertPolicyKey(organizationId),
    queryFn: async () =>
      unwrap(
        await api.get<AlertPolicyResponse>(
          `/v2/organization/${encodeURIComponent(organizationId)}/alertPolicy`,
        ),
      ),
  });
