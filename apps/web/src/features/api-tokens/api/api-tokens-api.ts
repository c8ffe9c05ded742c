import {
  type CreateApiTokenBody,
  createApiToken,
  listApiTokens,
  revokeApiToken,
} from '@wearable/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';

// One's own API tokens (contract: packages/domain/src/contracts/api-tokens.ts).

export const useApiTokens = (enabled: boolean) =>
  useQuery({ ...endpointQuery(listApiTokens), enabled });

/** A new token: the answer holds the token, shown once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiTokenBody) => call(createApiToken, { body }),
    onSuccess: () => invalidateEndpoints(queryClient, listApiTokens),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => call(revokeApiToken, { params: { tokenId } }),
    onSuccess: () => invalidateEndpoints(queryClient, listApiTokens),
  });
}
