import {
  type BraceletImportBody,
  getDeviceSetting,
  getDeviceSummary,
  importBracelets,
  listWearers,
  registerBracelet,
  type RegisterBraceletBody,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** POST /v2/device: one bracelet by serial number (409 BRACELET_SERIAL_TAKEN when known). */
export function useRegisterBracelet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterBraceletBody) => call(registerBracelet, { body }),
    onSuccess: () =>
      invalidateEndpoints(queryClient, listWearers, getDeviceSummary, getDeviceSetting),
  });
}

/** POST /v2/client/{clientId}/bracelets/import: the preview (dryRun) or the commit, all rows or none. */
export function useImportBracelets(clientId: string) {
  const queryClient = useQueryClient();
  return async (rows: BraceletImportBody['rows'], dryRun: boolean) => {
    const result = await call(importBracelets, { params: { clientId }, body: { rows, dryRun } });
    if (!dryRun)
      await invalidateEndpoints(queryClient, listWearers, getDeviceSummary, getDeviceSetting);
    return result;
  };
}
