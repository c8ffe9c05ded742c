import {
  bareConfirmEmailChange,
  changePassword,
  type EmailChangeBody,
  endAllSessions,
  endSession,
  getAccount,
  listSessions,
  type PasswordChangeBody,
  type PhoneVerifyBody,
  type PhoneVerifyCodeBody,
  requestEmailChange,
  sendPhoneCode,
  updatePerson,
  verifyPhone,
} from '@wearable/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callResult } from '../../../lib/call';
import { call, endpointQuery, invalidateEndpoints } from '../../../lib/endpoint';
import { loadUserInfo } from '../../../lib/session-api';

// One's own account on /user/info (contracts: packages/domain/src/contracts/account.ts).

export const accountQuery = () => endpointQuery(getAccount);
export const useAccount = () => useQuery(accountQuery());

export const sessionsQuery = () =>
  queryOptions({ ...endpointQuery(listSessions), select: (answer) => answer.sessions });
export const useSessions = () => useQuery(sessionsQuery());

/** A change: the answer, or the server's refusal (an ApiError: its code, message and fields) for the form to show. */
function useAccountChange<I, T>(change: (input: I) => Promise<T>, after?: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async () => {
      await invalidateEndpoints(queryClient, getAccount, listSessions);
      await after?.();
    },
  });
}

/** One's own name; the stored user info (header, menus) follows. */
export const useRename = () =>
  useAccountChange((name: string) => call(updatePerson, { body: { name } }), loadUserInfo);
export const useSendPhoneCode = () =>
  useAccountChange((body: PhoneVerifyCodeBody) => call(sendPhoneCode, { body }));
export const useVerifyPhone = () =>
  useAccountChange((body: PhoneVerifyBody) => call(verifyPhone, { body }));
export const useRequestEmailChange = () =>
  useAccountChange((body: EmailChangeBody) => call(requestEmailChange, { body }));
export const useChangePassword = () =>
  useAccountChange((body: PasswordChangeBody) => call(changePassword, { body }));
export const useEndSession = () =>
  useAccountChange((sessionId: string) => call(endSession, { params: { sessionId } }));
/** This session ends too (the caller then leaves). */
export const signOutEverywhere = () => callResult(endAllSessions);
/** The link's token is its own credential (no bearer token). */
export const confirmEmailChange = (token: string) =>
  callResult(bareConfirmEmailChange, { body: { token } });
