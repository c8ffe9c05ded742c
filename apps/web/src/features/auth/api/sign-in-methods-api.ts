import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SignInMethodsResponse, SignInResult } from '@wearable/domain';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

const methodsQuery = queryOptions({
  queryKey: ['auth', 'methods'],
  queryFn: async () =>
    unwrap(await api.get<SignInMethodsResponse>('/v2/auth/methods', { auth: false })),
  staleTime: Infinity,
});

/** What the login page offers (GET /v2/auth/methods). */
export const useSignInMethods = () => useQuery(methodsQuery);

type Accepted = { accepted: true };
export const requestEmailLink = (body: { email: string; locale: 'ja' | 'en' }) =>
  api.post<Accepted>('/v2/auth/emailLink', body, { auth: false });
export const verifyEmailLink = (body: { token: string; email?: string }) =>
  api.post<SignInResult>('/v2/auth/emailLink/verify', body, { auth: false });
export const requestPhoneCode = (body: { phoneNumber: string; locale: 'ja' | 'en' }) =>
  api.post<Accepted>('/v2/auth/phoneCode', body, { auth: false });
export const phoneSignIn = (body: { phoneNumber: string; code: string }) =>
  api.post<SignInResult>('/v2/auth/phoneSignIn', body, { auth: false });
