import type {
  CreateWearerRequest,
  FamilyMember,
  Person,
  UpdateUserRequest,
  WearerListItem,
} from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { type ApiResult, unwrap } from '../../../lib/api-client';
// One error type for every people and staff change, so the forms show the server's refusal the same way.
import { MemberChangeError } from '../../members/api/member-changes';

/** GET /v2/user/device/list (one organisation when clientId is given). */
export const useWearers = (clientId: string | null) =>
  useQuery({
    queryKey: ['people', 'wearers', clientId],
    queryFn: async () =>
      unwrap(
        await api.get<{ devices: WearerListItem[] }>('/v2/user/device/list', {
          query: { clientId: clientId ?? undefined },
        }),
      ).devices,
  });

/** GET /v2/user/lookup/associatedWithWearables: family members of the wearers shown. */
export const useFamilies = (clientId: string | null) =>
  useQuery({
    queryKey: ['people', 'families', clientId],
    queryFn: async () =>
      unwrap(
        await api.get<{ users: FamilyMember[] }>('/v2/user/lookup/associatedWithWearables', {
          query: { clientId: clientId ?? undefined },
        }),
      ).users,
  });

/** The organisation's groups (GET /v2/client/{id}), for the wearer form. */
export const useGroups = (clientId: string | null) =>
  useQuery({
    queryKey: ['client', clientId],
    enabled: clientId !== null,
    queryFn: async () =>
      unwrap(
        await api.get<{ groups: { id: string; name: string }[] }>(
          `/v2/client/${encodeURIComponent(clientId ?? '')}`,
        ),
      ).groups,
  });

function usePeopleChange<I, T>(change: (input: I) => Promise<ApiResult<T>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: I) => {
      const result = await change(input);
      if (!result.ok) throw new MemberChangeError(result.status, result.data);
      return result.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['people'] }),
  });
}

export const useCreateWearer = () =>
  usePeopleChange((body: CreateWearerRequest) => api.post<Person>('/v2/user/wearer', body));
export const useUpdatePerson = () =>
  usePeopleChange((body: UpdateUserRequest) => api.patch<Person>('/v3/user/update', body));
export const useRemoveWearer = () =>
  usePeopleChange((uid: string) =>
    api.delete<{ ok: true }>(`/v2/user/wearer/${encodeURIComponent(uid)}`),
  );
export const useFamilyLink = () =>
  usePeopleChange(
    ({ uid, wearerUid, linked }: { uid: string; wearerUid: string; linked: boolean }) =>
      api.post<{ linked: boolean }>(
        linked ? '/v2/user/device/link/user' : '/v2/user/device/unlink/user',
        { uid, wearerUid },
      ),
  );
