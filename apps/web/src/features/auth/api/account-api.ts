import type {
  AccountView,
  EmailChangeBody,
  PasswordChangeBody,
  PhoneVerifyBody,
  PhoneVerifyCodeBody,
  SessionsResponse,
} from '@wearable/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError, type ApiResult, unwrap } from '../../../lib/api-client';
import { loadUserInfo } from '../../../lib/session-api';

// One's own account on /user/info (contracts: packages/domain/src/contracts/account.ts).

/** GET /v2/user/account. */
export const accountQuery = () =>
  queryOptions({
    queryKey: ['account'],
    queryFn: async () => unwrap(await api.get<AccountView>('/v2/user/account')),
  });
export const useAccount = () => useQuery(accountQuery());

/** GET /v2/user/sessions. */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: ['account', 'sessions'],
    queryFn: async () => unwrap(await api.get<SessionsResponse>('/v2/user/sessions')).sessions,
  });
export const useSessions = () => useQuery(sessionsQuery());

/** A change: the answer, or the server's refusal (its code, message and fields) for the form to show. */
function useAccountChange<I, T>(
  change: (input: I) => Promise<ApiResult<T>>,
  after?: () => Promise<unknown>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: I) => {
      const result = await change(input);
      if (!result.ok) throw new ApiError(result.status, result.data);
      return result.data;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['account'] });
      await after?.();
    },
  });
}

/** PATCH /v3/user/update with one's own name; the stored user info (header, menus) follows. */
export const useRename = () =>
  useAccountChange((name: string) => api.patch<unknown>('/v3/user/update', { name }), loadUserInfo);
/** POST /v2/user/account/phone/code. */
export const useSendPhoneCode = () =>
  useAccountChange((body: PhoneVerifyCodeBody) =>
    api.post<{ sentTo: string; expiresAt: string }>('/v2/user/account/phone/code', body),
  );
/** POST /v2/user/account/phone/verify. */
export const useVerifyPhone = () =>
  useAccountChange((body: PhoneVerifyBody) =>
    api.post<AccountView>('/v2/user/account/phone/verify', body),
  );
/** POST /v2/user/account/email/change. */
export const useRequestEmailChange = () =>
  useAccountChange((body: EmailChangeBody) =>
    api.post<{ sentTo: string; expiresAt: string }>('/v2/user/account/email/change', body),
  );
/** POST /v2/user/account/password. */
export const useChangePassword = () =>
  useAccountChange((body: PasswordChangeBody) =>
    api.post<{ ended: number }>('/v2/user/account/password', body),
  );
/** DELETE /v2/user/sessions/{sessionId}. */
export const useEndSession = () =>
  useAccountChange((id: string) => api.delete<null>(`/v2/user/sessions/${encodeURIComponent(id)}`));
/** POST /v2/user/sessions/signOutEverywhere: this session ends too (the caller then leaves). */
export const signOutEverywhere = () =>
  api.post<{ ended: number }>('/v2/user/sessions/signOutEverywhere', {});
/** POST /v2/auth/emailChange/confirm: the link's token is its own credential (no bearer token). */
export const confirmEmailChange = (token: string) =>
  api.post<{ email: string }>('/v2/auth/emailChange/confirm', { token }, { auth: false });
