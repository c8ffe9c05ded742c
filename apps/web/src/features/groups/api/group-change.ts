import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiResult } from '../../../lib/api-client';
import { MemberChangeError } from '../../members/api/member-changes';

/**
 * A group change: its answer, or the server's refusal for the form to show (one error type with the other
 * settings forms). The group list and the organisation's group choices (['client', id]) are refreshed.
 */
export function useGroupChange<I, T>(change: (input: I) => Promise<ApiResult<T>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: I) => {
      const result = await change(input);
      if (!result.ok) throw new MemberChangeError(result.status, result.data);
      return result.data;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['groups'] });
      await queryClient.invalidateQueries({ queryKey: ['client'] });
    },
  });
}
