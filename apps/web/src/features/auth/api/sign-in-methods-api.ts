import { useEffect, useState } from 'react';
import type { SignInMethodsResponse, SignInResult } from '@wearable/domain';
import { api } from '../../../lib/api';

/** A failed request is tried once more after this long, as the query cache's one retry did. */
const RETRY_MS = 1000;

/**
 * What the login page offers (GET /v2/auth/methods); undefined until the server answers, or when it could
 * not (twice). Plain state rather than a query: the sign-in form does not load the query cache (issue 20).
 */
export function useSignInMethods(): SignInMethodsResponse | undefined {
  const [methods, setMethods] = useState<SignInMethodsResponse>();
  useEffect(() => {
    let active = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = async (attempt: number) => {
      const result = await api.get<SignInMethodsResponse>('/v2/auth/methods', { auth: false });
      if (!active) return;
      if (result.ok) setMethods(result.data);
      else if (attempt === 0) retry = setTimeout(() => void load(1), RETRY_MS);
    };
    void load(0);
    return () => {
      active = false;
      clearTimeout(retry);
    };
  }, []);
  return methods;
}

type Accepted = { accepted: true };
export const requestEmailLink = (body: { email: string; locale: 'ja' | 'en' }) =>
  api.post<Accepted>('/v2/auth/emailLink', body, { auth: false });
export const verifyEmailLink = (body: { token: string; email?: string }) =>
  api.post<SignInResult>('/v2/auth/emailLink/verify', body, { auth: false });
export const requestPhoneCode = (body: { phoneNumber: string; locale: 'ja' | 'en' }) =>
  api.post<Accepted>('/v2/auth/phoneCode', body, { auth: false });
export const phoneSignIn = (body: { phoneNumber: string; code: string }) =>
  api.post<SignInResult>('/v2/auth/phoneSignIn', body, { auth: false });
