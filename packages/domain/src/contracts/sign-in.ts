import { z } from 'zod';
import { refreshBody, signInBody, signOutBody, tokenPair } from './auth.js';
import { endpointsOf } from './endpoint.js';
import {
  oidcExchangeBody,
  signInResult,
  totpCodeBody,
  totpEnrolBody,
  totpSetupResponse,
  totpStatus,
  totpVerifyBody,
} from './sign-in-factors.js';
import {
  emailLinkBody,
  emailLinkVerifyBody,
  passwordResetBody,
  passwordResetDone,
  passwordResetRequestBody,
  phoneCodeBody,
  phoneSignInBody,
  signInCodeAccepted,
  signInMethodsResponse,
} from './sign-in-methods.js';

/**
 * Signing in and out, every method and its second step (docs/api.md). The public ones are called
 * before there is a session; the sign-in pages call them through `bare-endpoints.ts` (no zod).
 */
const identity = endpointsOf({ tags: ['Identity'], errors: [400, 401] });
/** Refusals of the TOTP steps. */
const TOTP_ERRORS = [400, 401, 409, 429] as const;
/** Refusals of the email-link and phone-code methods (403: the method is turned off here). */
const METHOD_ERRORS = [400, 403, 429] as const;

export const signIn = identity({
  method: 'POST',
  path: '/v2/auth/signIn',
  permission: 'public',
  summary: 'Sign in with e-mail and password (tokens, or a TOTP step: docs/api.md)',
  body: signInBody,
  responses: { 200: signInResult },
  errors: [400, 401, 429],
});

export const refreshSession = identity({
  method: 'POST',
  path: '/v2/auth/refresh',
  permission: 'public',
  summary: 'Exchange a refresh token for a new pair (the old one is revoked)',
  body: refreshBody,
  responses: { 200: tokenPair },
});

export const signOut = identity({
  method: 'POST',
  path: '/v2/auth/signOut',
  permission: 'self:update',
  allowBeforeTerms: true,
  summary: 'End the session (and the given refresh token’s session)',
  // No body at all arrives as null: sign-out of the current session only.
  body: signOutBody.nullish(),
  responses: { 204: z.null() },
  errors: [401],
});

export const getTotpStatus = identity({
  method: 'GET',
  path: '/v2/auth/totp',
  permission: 'self:read',
  summary:
    'Whether the caller has a TOTP second factor, and whether their organisation requires one',
  responses: { 200: totpStatus },
  errors: [401],
});

export const setupTotp = identity({
  method: 'POST',
  path: '/v2/auth/totp/setup',
  permission: 'self:update',
  summary: 'Start turning TOTP on: a new secret (shown this once) as an otpauth URI and QR code',
  responses: { 200: totpSetupResponse },
  errors: TOTP_ERRORS,
});

export const enableTotp = identity({
  method: 'POST',
  path: '/v2/auth/totp/enable',
  permission: 'self:update',
  summary: 'Turn TOTP on with a code from the app (after setup)',
  body: totpCodeBody,
  responses: { 200: totpStatus },
  errors: TOTP_ERRORS,
});

export const disableTotp = identity({
  method: 'POST',
  path: '/v2/auth/totp/disable',
  permission: 'self:update',
  summary: 'Turn TOTP off with a current code (not while the organisation requires it)',
  body: totpCodeBody,
  responses: { 200: totpStatus },
  errors: TOTP_ERRORS,
});

export const enrolTotp = identity({
  method: 'POST',
  path: '/v2/auth/totp/enrol',
  permission: 'public',
  summary:
    'Enrol during sign-in when the organisation requires TOTP (challenge TOTP_ENROLMENT_REQUIRED)',
  body: totpEnrolBody,
  responses: { 200: totpSetupResponse },
  errors: TOTP_ERRORS,
});

export const verifyTotp = identity({
  method: 'POST',
  path: '/v2/auth/totp/verify',
  permission: 'public',
  summary: 'Complete a sign-in with the challenge and a TOTP code',
  body: totpVerifyBody,
  responses: { 200: tokenPair },
  errors: TOTP_ERRORS,
});

export const startOidc = identity({
  method: 'GET',
  path: '/v2/auth/oidc/start',
  permission: 'public',
  summary: 'Start social sign-in: redirects to the OpenID provider (state, nonce, PKCE)',
  responses: { 302: z.null() },
  errors: [404, 503],
});

const oidcParam = z.string().max(2048).optional();

export const oidcCallback = identity({
  method: 'GET',
  path: '/v2/auth/oidc/callback',
  permission: 'public',
  summary:
    'The provider returns here; redirects to the console’s /login/oidc with a one-time code (or the refusal) in the fragment',
  query: z.object({
    code: oidcParam,
    state: oidcParam,
    iss: oidcParam,
    error: oidcParam,
    error_description: oidcParam,
    session_state: oidcParam,
  }),
  responses: { 303: z.null() },
  errors: [400, 404],
});

export const exchangeOidcCode = identity({
  method: 'POST',
  path: '/v2/auth/oidc/exchange',
  permission: 'public',
  summary: 'Swap the one-time code from /login/oidc for the tokens (or the TOTP step)',
  body: oidcExchangeBody,
  responses: { 200: signInResult },
});

export const getSignInMethods = identity({
  method: 'GET',
  path: '/v2/auth/methods',
  permission: 'public',
  summary: 'The sign-in methods this server offers',
  responses: { 200: signInMethodsResponse },
  errors: [],
});

export const requestEmailLink = identity({
  method: 'POST',
  path: '/v2/auth/emailLink',
  permission: 'public',
  summary:
    'Mail a single-use sign-in link (15 minutes); the same answer whether or not the address has an account',
  body: emailLinkBody,
  responses: { 202: signInCodeAccepted },
  errors: METHOD_ERRORS,
});

export const verifyEmailLink = identity({
  method: 'POST',
  path: '/v2/auth/emailLink/verify',
  permission: 'public',
  summary: 'Sign in with the token of an emailed link',
  body: emailLinkVerifyBody,
  responses: { 200: signInResult },
  errors: [...METHOD_ERRORS, 401, 410],
});

export const requestPasswordReset = identity({
  method: 'POST',
  path: '/v2/auth/passwordReset',
  permission: 'public',
  summary:
    'Mail a single-use link (30 minutes) that sets a new password; the same answer whether or not the address has an account',
  body: passwordResetRequestBody,
  responses: { 202: signInCodeAccepted },
  errors: METHOD_ERRORS,
});

export const resetPassword = identity({
  method: 'POST',
  path: '/v2/auth/passwordReset/confirm',
  permission: 'public',
  summary:
    'Set a new password with the token of a mailed reset link; every session of the account ends, live streams too',
  body: passwordResetBody,
  responses: { 200: passwordResetDone },
  errors: [...METHOD_ERRORS, 401, 410],
});

export const requestPhoneCode = identity({
  method: 'POST',
  path: '/v2/auth/phoneCode',
  permission: 'public',
  summary:
    'SMS a 6-digit sign-in code (5 minutes) to a verified number; the same answer whether or not it has an account',
  body: phoneCodeBody,
  responses: { 202: signInCodeAccepted },
  errors: METHOD_ERRORS,
});

export const phoneSignIn = identity({
  method: 'POST',
  path: '/v2/auth/phoneSignIn',
  permission: 'public',
  summary: 'Sign in with a phone number and its SMS code (5 wrong codes end the code)',
  body: phoneSignInBody,
  responses: { 200: signInResult },
  errors: [...METHOD_ERRORS, 401],
});
