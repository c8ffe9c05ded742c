import {
  type CreateWearerRequest,
  createWearer,
  getClient,
  getDeviceSummary,
  getPerson,
  importWearers,
  linkFamilyMember,
  listFamilyOfWearers,
  listWearers,
  removeWearer,
  erasePersonData,
  unlinkFamilyMember,
  type UpdateUserRequest,
  updatePerson,
  type WearerImportBody,
} from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

/** The wearers the caller may see (one organisation when clientId is given). */
export const useWearers = (clientId: string | null) =>
  useQuery({
    ...endpointQuery(listWearers, { query: { clientId: clientId ?? undefined } }),
    select: (answer) => answer.devices,
  });

/** Family members of the wearers shown. */
export const useFamilies = (clientId: string | null) =>
  useQuery({
    ...endpointQuery(listFamilyOfWearers, { query: { clientId: clientId ?? undefined } }),
    select: (answer) => answer.users,
  });

/** The organisation's groups, for the wearer form (the organisation's one read, shared by every feature). */
export const useOrganizationGroups = (clientId: string | null) =>
  useQuery({
    ...endpointQuery(getClient, { params: { id: clientId ?? '' } }),
    enabled: clientId !== null,
    select: (answer) => answer.groups,
  });

/** A people change: the server's refusal is an ApiError; every read of people is refreshed. */
function usePeopleChange<I, T>(change: (input: I) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () =>
      invalidateEndpoints(
        queryClient,
        listWearers,
        listFamilyOfWearers,
        getPerson,
        getDeviceSummary,
      ),
  });
}

export const useCreateWearer = () =>
  usePeopleChange((body: CreateWearerRequest) => call(createWearer, { body }));
export const useUpdatePerson = () =>
  usePeopleChange((body: UpdateUserRequest) => call(updatePerson, { body }));
export const useRemoveWearer = () =>
  usePeopleChange((uid: string) => call(removeWearer, { params: { uid } }));
/** DELETE /v2/user/{uid}/data: the wearer and everything about them (docs/privacy.md). */
export const useErasePerson = () =>
  usePeopleChange((uid: string) => call(erasePersonData, { params: { uid } }));
export const useFamilyLink = () =>
  usePeopleChange(
    ({ uid, wearerUid, linked }: { uid: string; wearerUid: string; linked: boolean }) =>
      call(linked ? linkFamilyMember : unlinkFamilyMember, { body: { uid, wearerUid } }),
  );

/** POST /v2/client/{clientId}/wearers/import: the preview (dryRun) or the commit, all rows or none. */
export function useImportWearers(clientId: string) {
  const queryClient = useQueryClient();
  return async (rows: WearerImportBody['rows'], dryRun: boolean) => {
    const result = await call(importWearers, { params: { clientId }, body: { rows, dryRun } });
    if (!dryRun)
      await invalidateEndpoints(
        queryClient,
        listWearers,
        listFamilyOfWearers,
        getPerson,
        getDeviceSummary,
      );
    return result;
  };
}
