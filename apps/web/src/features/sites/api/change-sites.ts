import {
  createSite,
  deleteSite,
  deleteSitePlan,
  type GatewayPlacement,
  getSitePlan,
  listSites,
  placeGateway,
  renameSite,
  uploadSitePlan,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** Every change refetches the list (and the plan image it may have replaced). */
function useChange<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => invalidateEndpoints(queryClient, listSites, getSitePlan),
  });
}

export const useCreateSite = (organizationId: string) =>
  useChange((body: { name: string; groupId?: string | null }) =>
    call(createSite, { params: { organizationId }, body }),
  );

export const useRenameSite = () =>
  useChange(({ siteId, name }: { siteId: string; name: string }) =>
    call(renameSite, { params: { siteId }, body: { name } }),
  );

export const useDeleteSite = () =>
  useChange((siteId: string) => call(deleteSite, { params: { siteId } }));

/** The file as it is: the server decides by its content whether it is a plan. */
export const useUploadSitePlan = () =>
  useChange(({ siteId, file }: { siteId: string; file: Blob }) =>
    call(uploadSitePlan, { params: { siteId }, body: file }),
  );

export const useDeleteSitePlan = () =>
  useChange((siteId: string) => call(deleteSitePlan, { params: { siteId } }));

export const usePlaceGateway = () =>
  useChange(({ gatewayId, place }: { gatewayId: string; place: GatewayPlacement }) =>
    call(placeGateway, { params: { gatewayId }, body: place }),
  );
