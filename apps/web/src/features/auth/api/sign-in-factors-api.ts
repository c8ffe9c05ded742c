import type { SignInResult, TokenPair, TotpSetupResponse, TotpStatus } from '@wearable/domain';
import { api } from '../../../lib/api';

// The second step of a sign-in and social sign-in: calls made before there are tokens.
export const verifyTotp = (body: { challenge: string; code: string }) =>
  api.post<TokenPair>('/v2/auth/totp/verify', body, { auth: false });
export const enrolTotp = (body: { challenge: string }) =>
  api.post<TotpSetupResponse>('/v2/auth/totp/enrol', body, { auth: false });
export const exchangeOidcCode = (body: { code: string }) =>
  api.post<SignInResult>('/v2/auth/oidc/exchange', body, { auth: false });

// The signed-in person's own second factor.
export const getTotpStatus = () => api.get<TotpStatus>('/v2/auth/totp');
export const setupTotp = () => api.post<TotpSetupResponse>('/v2/auth/totp/setup', {});
export const enableTotp = (body: { code: string }) =>
  api.post<TotpStatus>('/v2/auth/totp/enable', body);
export const disableTotp = (body: { code: string }) =>
  api.post<TotpStatus>('/v2/auth/totp/disable', body);

/** Where the browser goes to start social sign-in (a full page load, not a fetch). */
export const OIDC_START_URL = '/v2/auth/oidc/start';
