import { createPhoneEnrolment, getGateway, listGateways, listWearers } from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

/**
 * A one-time enrolment code for a SMARTPHONE gateway and the /phone link holding it (15 minutes,
 * single use), for the wearer who carries the phone (`wearerId`), or a shared phone (`null`).
 */
export const useCreatePhoneEnrolment = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ gatewayId, wearerId }: { gatewayId: string; wearerId: string | null }) =>
      call(createPhoneEnrolment, { params: { gatewayId }, body: { wearerId } }),
    // The gateway now names who carries it.
    onSuccess: () => invalidateEndpoints(queryClient, listGateways, getGateway),
  });
};

/** The organisation's wearers, for "who carries this phone". */
export const usePhoneCarriers = (clientId: string) =>
  useQuery({
    ...endpointQuery(listWearers, { query: { clientId } }),
    select: (answer) => answer.devices,
  });
