import { useEffect, useState } from 'react';
import {
  bareGetSignInMethods,
  barePhoneSignIn,
  bareRequestEmailLink,
  bareRequestPasswordReset,
  bareRequestPhoneCode,
  bareResetPassword,
  bareVerifyEmailLink,
  type SignInMethodsResponse,
} from '@wearable/domain';
import { callResult } from '../../../lib/call';

/** A failed request is tried once more after this long, as the query cache's one retry did. */
const RETRY_MS = 1000;

/**
 * What the login page offers (the sign-in methods endpoint); undefined until the server answers, or when it could
 * not (twice). Plain state rather than a query: the sign-in form does not load the query cache (issue 20).
 */
export function useSignInMethods(): SignInMethodsResponse | undefined {
  const [methods, setMethods] = useState<SignInMethodsResponse>();
  useEffect(() => {
    let active = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = async (attempt: number) => {
      const result = await callResult(bareGetSignInMethods);
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

export const requestEmailLink = (body: { email: string; locale: 'ja' | 'en' }) =>
  callResult(bareRequestEmailLink, { body });
export const verifyEmailLink = (body: { token: string; email?: string }) =>
  callResult(bareVerifyEmailLink, { body });
export const requestPhoneCode = (body: { phoneNumber: string; locale: 'ja' | 'en' }) =>
  callResult(bareRequestPhoneCode, { body });
export const phoneSignIn = (body: { phoneNumber: string; code: string }) =>
  callResult(barePhoneSignIn, { body });
export const requestPasswordReset = (body: { email: string; locale: 'ja' | 'en' }) =>
  callResult(bareRequestPasswordReset, { body });
export const resetPassword = (body: { token: string; newPassword: string }) =>
  callResult(bareResetPassword, { body });
