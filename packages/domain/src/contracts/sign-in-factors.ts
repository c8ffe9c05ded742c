import { z } from 'zod';
import { tokenPair } from './auth.js';
import { id } from './common.js';
import { endpointsOf } from './endpoint.js';

/** A 6-digit code from an authenticator app (RFC 6238, 30-second steps). */
export const totpCode = z
  .string()
  .regex(/^\d{6}$/, 'must be the 6 digits the authenticator app shows');
/** An opaque single-use value the server handed out (challenge, exchange code). */
const opaqueValue = z.string().min(16).max(128);

/**
 * The second step of a sign-in: the first step (password, email link, phone, OIDC) was right but
 * the account has TOTP on (TOTP_REQUIRED), or its organisation requires TOTP and the account has
 * none yet (TOTP_ENROLMENT_REQUIRED: enrol with POST /v2/auth/totp/enrol, then verify).
 */
export const mfaChallenge = z.object({
  mfaRequired: z.literal(true),
  code: z.enum(['TOTP_REQUIRED', 'TOTP_ENROLMENT_REQUIRED']),
  challenge: z.string(),
  /** Seconds the challenge stays valid. */
  expiresIn: z.number().int(),
});
export type MfaChallenge = z.infer<typeof mfaChallenge>;

/** What every sign-in method answers: the tokens, or the second step. */
export const signInResult = z.union([tokenPair, mfaChallenge]);
export type SignInResult = z.infer<typeof signInResult>;

/** POST /v2/auth/totp/setup and /v2/auth/totp/enrol: the secret, shown this once. */
export const totpSetupResponse = z.object({
  otpauthUri: z.string(),
  /** The otpauth URI as a QR code, an SVG data URL. */
  qrCode: z.string(),
  /** Base32, for typing into an app that cannot scan. */
  secret: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;

export const totpCodeBody = z.object({ code: totpCode });
export const totpVerifyBody = z.object({ challenge: opaqueValue, code: totpCode });
export const totpEnrolBody = z.object({ challenge: opaqueValue });

/** GET /v2/auth/totp: the caller's own second factor. */
export const totpStatus = z.object({
  enabled: z.boolean(),
  /** The caller's organisation requires TOTP (it cannot be turned off then). */
  requiredByOrganization: z.boolean(),
});
export type TotpStatus = z.infer<typeof totpStatus>;

/** POST /v2/auth/oidc/exchange: the one-time code the callback put in the web app's URL fragment. */
export const oidcExchangeBody = z.object({ code: opaqueValue });

/** GET/PATCH /v2/client/{id}/signInSettings. */
export const signInSettings = z.object({ requireTotp: z.boolean() });
export const signInSettingsPatch = z.object({ requireTotp: z.boolean() });
export type SignInSettings = z.infer<typeof signInSettings>;

const signInSettingsEndpoint = endpointsOf({ tags: ['Identity'], errors: [401, 404] });

export const getSignInSettings = signInSettingsEndpoint({
  method: 'GET',
  path: '/v2/client/{id}/signInSettings',
  permission: 'organization:read',
  summary: 'How the organisation’s people sign in (TOTP required or not)',
  params: z.object({ id }),
  responses: { 200: signInSettings },
});

export const updateSignInSettings = signInSettingsEndpoint({
  method: 'PATCH',
  path: '/v2/client/{id}/signInSettings',
  permission: 'organization:update',
  summary: 'Require (or stop requiring) a TOTP second factor for the organisation (owner)',
  params: z.object({ id }),
  body: signInSettingsPatch,
  responses: { 200: signInSettings },
  errors: [400, 401, 403, 404],
});
