import type { ApiTokenList, CreateApiTokenBody, CreatedApiToken } from '@wearable/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError, unwrap } from '../../../lib/api-client';

// One's own API tokens (contract: packages/domain/src/contracts/api-tokens.ts).

const KEY = ['api-tokens'] as const;

/** GET /v2/user/apiTokens. */
export const apiTokensQuery = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: async () => unwrap(await api.get<ApiTokenList>('/v2/user/apiTokens')),
  });
export const useApiTokens = (enabled: boolean) => useQuery({ ...apiTokensQuery(), enabled });

/** POST /v2/user/apiTokens: the answer holds the token, shown once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateApiTokenBody) => {
      const result = await api.post<CreatedApiToken>('/v2/user/apiTokens', body);
      if (!result.ok) throw new ApiError(result.status, result.data);
      return result.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /v2/user/apiTokens/{tokenId}. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (tokenId: string) =>
      unwrap(await api.delete<{ ok: true }>(`/v2/user/apiTokens/${encodeURIComponent(tokenId)}`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
