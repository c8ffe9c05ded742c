import { getPlaceMap, getPlacePrivacy, updatePlacePrivacy } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** Owners: show places only while an alert is open, or always; the map refetches. */
export function useUpdatePlacePrivacy(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (placesOnlyDuringAlerts: boolean) =>
      call(updatePlacePrivacy, { params: { organizationId }, body: { placesOnlyDuringAlerts } }),
    onSuccess: () => invalidateEndpoints(queryClient, getPlaceMap, getPlacePrivacy),
  });
}
