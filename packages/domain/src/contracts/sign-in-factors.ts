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

/** The second factors an account can answer a sign-in's second step with. */
export const SECOND_FACTORS = ['totp', 'passkey'] as const;
export type SecondFactor = (typeof SECOND_FACTORS)[number];

/**
 * The second step of a sign-in: the first step (password, email link, phone, OIDC) was right but
 * - TOTP_REQUIRED: the account has TOTP on (answer with a code, or with a passkey when `factors` has one);
 * - PASSKEY_REQUIRED: the account has passkeys and no TOTP (answer with a passkey);
 * - TOTP_ENROLMENT_REQUIRED: its organisation requires TOTP and the account has none yet (enrol with
 *   POST /v2/auth/totp/enrol, then verify);
 * - SECOND_FACTOR_ENROLMENT_REQUIRED: its organisation requires a second factor of its staff, the grace
 *   period is over and the account has none (enrol a passkey, /v2/auth/passkey/enrol, or TOTP as above).
 */
export const mfaChallenge = z.object({
  mfaRequired: z.literal(true),
  code: z.enum([
    'TOTP_REQUIRED',
    'TOTP_ENROLMENT_REQUIRED',
    'PASSKEY_REQUIRED',
    'SECOND_FACTOR_ENROLMENT_REQUIRED',
  ]),
  challenge: z.string(),
  /** Seconds the challenge stays valid. */
  expiresIn: z.number().int(),
  /** The factors the account has, any of which answers the step (empty while enrolling). */
  factors: z.array(z.enum(SECOND_FACTORS)),
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

/**
 * GET/PATCH /v2/client/{id}/signInSettings. `requireTotp` (every account, TOTP itself) is kept as it was;
 * `requireSecondFactor` asks the staff for a passkey or TOTP, after `secondFactorGraceDays` days to enrol
 * (decision 0019).
 */
export const signInSettings = z.object({
  requireTotp: z.boolean(),
  requireSecondFactor: z.boolean(),
  /** Days from turning it on during which staff without a second factor still sign in (told to enrol). */
  secondFactorGraceDays: z.number().int(),
  /** When the grace period ends (ISO 8601); null while the requirement is off. */
  secondFactorGraceEndsAt: z.string().nullable(),
});
/** Each field optional (what is left out stays); an older client's `{ requireTotp }` works as before. */
export const signInSettingsPatch = z
  .object({
    requireTotp: z.boolean().optional(),
    requireSecondFactor: z.boolean().optional(),
    secondFactorGraceDays: z.number().int().min(0).max(90).optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'give requireTotp, requireSecondFactor or secondFactorGraceDays',
  });
export type SignInSettings = z.infer<typeof signInSettings>;
export type SignInSettingsPatch = z.infer<typeof signInSettingsPatch>;

const signInSettingsEndpoint = endpointsOf({ tags: ['Identity'], errors: [401, 404] });

export const getSignInSettings = signInSettingsEndpoint({
  method: 'GET',
  path: '/v2/client/{id}/signInSettings',
  permission: 'organization:read',
  summary:
    'How the organisation’s people sign in (TOTP, or a second factor for staff, required or not)',
  params: z.object({ id }),
  responses: { 200: signInSettings },
});

export const updateSignInSettings = signInSettingsEndpoint({
  method: 'PATCH',
  path: '/v2/client/{id}/signInSettings',
  permission: 'organization:update',
  summary:
    'Require (or stop requiring) TOTP, or a second factor (passkey or TOTP) of staff with a grace period (owner)',
  params: z.object({ id }),
  body: signInSettingsPatch,
  responses: { 200: signInSettings },
  errors: [400, 401, 403, 404],
});
