import { z } from 'zod';
import { tokenPair } from './auth.js';
import { endpointsOf } from './endpoint.js';

/**
 * Passkeys (WebAuthn, docs/decisions/0019-passkeys-and-second-factor-policy.md): one's own list, registering and
 * removing one, signing in with one without typing a name (a discoverable credential), and answering a sign-in's
 * second step with one. The browser's JSON (`PublicKeyCredential.toJSON()`, @simplewebauthn/browser) goes to the
 * server as it is; the server's options go to `navigator.credentials` as they are.
 */

/** base64url, as WebAuthn's JSON encodes bytes. */
const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url');
/** An opaque single-use value the server handed out (a sign-in's second step). */
const opaqueValue = z.string().min(16).max(128);

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
export type PasskeyTransport = (typeof TRANSPORTS)[number];
export const isPasskeyTransport = (value: string): value is PasskeyTransport =>
  (TRANSPORTS as readonly string[]).includes(value);
/** The ways the authenticator says it can be reached; names a browser invents later are dropped. */
const transports = z
  .array(z.string().max(32))
  .max(16)
  .transform((values) => values.filter(isPasskeyTransport));

/** What the browser's extensions answered: not read (none is asked for but credProps). */
const extensionResults = z.unknown();
const attachment = z.enum(['platform', 'cross-platform']).optional();

/** What `navigator.credentials.create()` gave, as JSON (RegistrationResponseJSON). */
export const passkeyRegistrationResponse = z.object({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(8192),
    authenticatorData: base64url(8192).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8192).optional(),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
});

/** What `navigator.credentials.get()` gave, as JSON (AuthenticationResponseJSON). */
export const passkeyAuthenticationResponse = z.object({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(8192),
    signature: base64url(8192),
    userHandle: base64url(1024).optional(),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
});

// The options are answers (serialised, never parsed with transforms): the server narrows the library's
// strings to these before it answers.
const publicKeyType = z.literal('public-key');
const verification = z.enum(['discouraged', 'preferred', 'required']).optional();
const hints = z.array(z.enum(['hybrid', 'security-key', 'client-device'])).optional();
const descriptor = z.object({
  id: z.string(),
  type: publicKeyType,
  transports: z.array(z.enum(TRANSPORTS)).optional(),
});

/** For `navigator.credentials.create()` (PublicKeyCredentialCreationOptionsJSON). */
export const passkeyCreationOptions = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: publicKeyType })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(descriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      residentKey: verification,
      requireResidentKey: z.boolean().optional(),
      userVerification: verification,
    })
    .optional(),
  hints,
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

/** For `navigator.credentials.get()` (PublicKeyCredentialRequestOptionsJSON). */
export const passkeyRequestOptions = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(descriptor).optional(),
  userVerification: verification,
  hints,
});

/** One of the caller's passkeys, as the account page lists it. */
export const passkeyView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeyView = z.infer<typeof passkeyView>;

/** The caller's passkeys, and what the organisation asks of their second factor. */
export const passkeyList = z.object({
  passkeys: z.array(passkeyView),
  secondFactor: z.object({
    /** The organisation requires a second factor (a passkey or TOTP) of its staff. */
    required: z.boolean(),
    /** The caller has one (a passkey, or TOTP turned on). */
    enrolled: z.boolean(),
    /** Without one, sign-in still gives tokens until then (ISO 8601); null when there is no grace. */
    enrolBy: z.string().nullable(),
  }),
});
export type PasskeyList = z.infer<typeof passkeyList>;

/** A name the person gives a passkey ("仕事用ノートPC"). */
export const passkeyName = z.string().trim().min(1).max(60);

export const registerPasskeyBody = z.object({
  name: passkeyName,
  response: passkeyRegistrationResponse,
});
export const passkeySignInBody = z.object({ response: passkeyAuthenticationResponse });
/** The second step of a sign-in (challenge: the mfaChallenge's). */
export const passkeyStepBody = z.object({ challenge: opaqueValue });
export const passkeyVerifyBody = z.object({
  challenge: opaqueValue,
  response: passkeyAuthenticationResponse,
});
export const passkeyEnrolBody = z.object({
  challenge: opaqueValue,
  name: passkeyName,
  response: passkeyRegistrationResponse,
});

const passkeys = endpointsOf({ tags: ['Identity'], errors: [400, 401] });
/** Refusals of a passkey ceremony: a bad body, an unknown or replayed challenge, a wrong answer. */
const CEREMONY_ERRORS = [400, 401, 409, 429] as const;

export const listPasskeys = passkeys({
  method: 'GET',
  path: '/v2/auth/passkeys',
  permission: 'self:read',
  summary: 'The caller’s passkeys, and whether their organisation requires a second factor',
  responses: { 200: passkeyList },
  errors: [401],
});

export const startPasskeyRegistration = passkeys({
  method: 'POST',
  path: '/v2/auth/passkeys/options',
  permission: 'self:update',
  summary:
    'Start registering a passkey: the options for navigator.credentials.create() (5 minutes)',
  responses: { 200: passkeyCreationOptions },
  errors: [401],
});

export const registerPasskey = passkeys({
  method: 'POST',
  path: '/v2/auth/passkeys',
  permission: 'self:update',
  summary: 'Register a passkey with what the browser answered to the options, under a name',
  body: registerPasskeyBody,
  responses: { 201: passkeyView },
  errors: CEREMONY_ERRORS,
});

export const removePasskey = passkeys({
  method: 'DELETE',
  path: '/v2/auth/passkeys/{passkeyId}',
  permission: 'self:update',
  summary: 'Remove one of one’s passkeys (404 for anyone else’s)',
  params: z.object({ passkeyId: z.string().min(1).max(64) }),
  responses: { 204: z.null() },
  errors: [400, 401, 404, 409],
});

export const startPasskeySignIn = passkeys({
  method: 'POST',
  path: '/v2/auth/passkey/signIn/options',
  permission: 'public',
  summary:
    'Start signing in with a passkey, no name typed: the options for navigator.credentials.get()',
  responses: { 200: passkeyRequestOptions },
  errors: [],
});

export const passkeySignIn = passkeys({
  method: 'POST',
  path: '/v2/auth/passkey/signIn',
  permission: 'public',
  summary: 'Sign in with a passkey (user verification required): the tokens',
  body: passkeySignInBody,
  responses: { 200: tokenPair },
  errors: [...CEREMONY_ERRORS, 403],
});

export const startPasskeyStep = passkeys({
  method: 'POST',
  path: '/v2/auth/passkey/verify/options',
  permission: 'public',
  summary: 'A sign-in’s second step with a passkey: the options for the account’s passkeys',
  body: passkeyStepBody,
  responses: { 200: passkeyRequestOptions },
  errors: CEREMONY_ERRORS,
});

export const verifyPasskeyStep = passkeys({
  method: 'POST',
  path: '/v2/auth/passkey/verify',
  permission: 'public',
  summary: 'Complete a sign-in’s second step with a passkey (instead of a TOTP code)',
  body: passkeyVerifyBody,
  responses: { 200: tokenPair },
  errors: CEREMONY_ERRORS,
});

export const startPasskeyEnrolment = passkeys({
  method: 'POST',
  path: '/v2/auth/passkey/enrol/options',
  permission: 'public',
  summary:
    'Enrol a passkey during sign-in when the organisation requires a second factor (SECOND_FACTOR_ENROLMENT_REQUIRED)',
  body: passkeyStepBody,
  responses: { 200: passkeyCreationOptions },
  errors: CEREMONY_ERRORS,
});

export const enrolPasskey = passkeys({
  method: 'POST',
  path: '/v2/auth/passkey/enrol',
  permission: 'public',
  summary: 'Register the passkey the enrolment asked for and complete the sign-in',
  body: passkeyEnrolBody,
  responses: { 200: tokenPair },
  errors: CEREMONY_ERRORS,
});
