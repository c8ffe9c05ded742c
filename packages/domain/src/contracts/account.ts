import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from './invitations.js';
import { phoneNumber } from './notifications.js';
import { MESSAGE_LOCALES } from './sign-in-methods.js';
import { endpointsOf } from './endpoint.js';

/** /user/info: the signed-in person's own account (every role). */

/** A phone-number check lasts this long; wrong codes allowed before it is dead. */
export const PHONE_VERIFY_MINUTES = 5;
export const PHONE_VERIFY_ATTEMPTS = 5;
/** An email-change link lasts this long and works once. */
export const EMAIL_CHANGE_MINUTES = 60;

/** GET /v2/user/account. */
export const accountView = z.object({
  uid: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  phoneVerified: z.boolean(),
  /** Whether the account has a password (OIDC-only and link-only accounts may not). */
  hasPassword: z.boolean(),
});
export type AccountView = z.infer<typeof accountView>;

/** POST /v2/user/account/phone/code: an SMS code to the new number. */
export const phoneVerifyCodeBody = z.strictObject({
  phoneNumber,
  locale: z.enum(MESSAGE_LOCALES).optional(),
});
export type PhoneVerifyCodeBody = z.input<typeof phoneVerifyCodeBody>;
export const phoneVerifyCodeSent = z.object({ sentTo: z.string(), expiresAt: z.string() });

/** POST /v2/user/account/phone/verify: the number and the 6 digits it received; saved only when right. */
export const phoneVerifyBody = z.strictObject({
  phoneNumber,
  code: z.string().regex(/^\d{6}$/, 'must be the 6 digits of the SMS'),
});
export type PhoneVerifyBody = z.input<typeof phoneVerifyBody>;

/** POST /v2/user/account/email/change: a link to the new address; the address changes when it is opened. */
export const emailChangeBody = z.strictObject({
  email: z.email().max(254),
  locale: z.enum(MESSAGE_LOCALES).optional(),
});
export type EmailChangeBody = z.input<typeof emailChangeBody>;
export const emailChangeSent = z.object({ sentTo: z.string(), expiresAt: z.string() });

/** POST /v2/auth/emailChange/confirm: the token from /verify-email#token=<token>. */
export const emailChangeConfirmBody = z.strictObject({
  token: z
    .string()
    .min(16)
    .max(128)
    .regex(/^[\w-]+$/, 'must be the token from the link'),
});
export const emailChangeConfirmed = z.object({ email: z.string() });

/** POST /v2/user/account/password. */
export const passwordChangeBody = z
  .strictObject({
    currentPassword: z.string().min(1).max(256),
    newPassword: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(256),
  })
  .refine((b) => b.newPassword !== b.currentPassword, {
    message: 'must differ from the current password',
    path: ['newPassword'],
  });
export type PasswordChangeBody = z.input<typeof passwordChangeBody>;

/** GET /v2/user/sessions: one's own sign-ins that are still open. */
export const sessionView = z.object({
  id: z.string(),
  /** The session of the request that asked. */
  current: z.boolean(),
  userAgent: z.string().nullable(),
  /** Read from the user agent ("Chrome", "Safari"…), null when unknown. */
  browser: z.string().nullable(),
  /** "Windows", "macOS", "iOS", "Android", "Linux"… or null. */
  os: z.string().nullable(),
  createdAt: z.string(),
  /** The last sign-in or token refresh of the session (a refresh happens every ACCESS_TOKEN_TTL while it is used). */
  lastUsedAt: z.string(),
  expiresAt: z.string(),
});
export type SessionView = z.infer<typeof sessionView>;
export const sessionsResponse = z.object({ sessions: z.array(sessionView) });
export type SessionsResponse = z.infer<typeof sessionsResponse>;
export const sessionParams = z.object({ sessionId: z.string().min(1).max(64) });
export const signedOutResponse = z.object({ ended: z.number().int() });

/** GET /v2/users?q=&page=&pageSize= (/users, platform staff): anyone with a console account, in any organisation. */
export const userLookupQuery = z.object({
  /** Part of a name, an email address or a phone number. */
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type UserLookupQuery = z.input<typeof userLookupQuery>;
export const userLookupRow = z.object({
  uid: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  role: z.string(),
  /** The person's organisation; for a family member, that of the first wearer they are linked to; null for platform staff. */
  clientId: z.string().nullable(),
  organizationName: z.string().nullable(),
});
export type UserLookupRow = z.infer<typeof userLookupRow>;
export const userLookupResponse = z.object({
  users: z.array(userLookupRow),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type UserLookupResponse = z.infer<typeof userLookupResponse>;

/** One's own account on /user/info, for every role (self:read / self:update). */
const ACCOUNT_ERRORS = [400, 401, 403, 404, 409, 429] as const;
const account = endpointsOf({ tags: ['Account'], errors: ACCOUNT_ERRORS });

export const getAccount = account({
  method: 'GET',
  path: '/v2/user/account',
  permission: 'self:read',
  summary: "One's own account: name, address, phone number and whether each is verified",
  responses: { 200: accountView },
});

export const sendPhoneCode = account({
  method: 'POST',
  path: '/v2/user/account/phone/code',
  permission: 'self:update',
  summary: `A 6-digit code by SMS to a new phone number (5 minutes); the number is saved only with it`,
  body: phoneVerifyCodeBody,
  responses: { 200: phoneVerifyCodeSent },
  // 502: the SMS provider refused or could not be reached.
  errors: [...ACCOUNT_ERRORS, 502],
});

export const verifyPhone = account({
  method: 'POST',
  path: '/v2/user/account/phone/verify',
  permission: 'self:update',
  summary: 'Save the phone number with the code it received (5 wrong codes end it)',
  body: phoneVerifyBody,
  responses: { 200: accountView },
});

export const requestEmailChange = account({
  method: 'POST',
  path: '/v2/user/account/email/change',
  permission: 'self:update',
  summary:
    'Mail a single-use link (60 minutes) to a new address; the address changes when it is opened',
  body: emailChangeBody,
  responses: { 200: emailChangeSent },
});

/** The link's token is its own credential: no bearer token (the link may be opened on another device). */
export const confirmEmailChange = account({
  method: 'POST',
  path: '/v2/auth/emailChange/confirm',
  permission: 'public',
  summary:
    "Open an email-change link (/verify-email#token=): the new address becomes the account's",
  body: emailChangeConfirmBody,
  responses: { 200: emailChangeConfirmed },
  errors: [400, 404, 409, 410],
});

export const changePassword = account({
  method: 'POST',
  path: '/v2/user/account/password',
  permission: 'self:update',
  summary:
    "Change one's password (the current one required, 12+ characters); one's other sessions end",
  body: passwordChangeBody,
  responses: { 200: signedOutResponse },
});

export const listSessions = account({
  method: 'GET',
  path: '/v2/user/sessions',
  permission: 'self:read',
  summary: "One's open sessions: device and browser, created, last used; this one marked",
  responses: { 200: sessionsResponse },
});

export const endSession = account({
  method: 'DELETE',
  path: '/v2/user/sessions/{sessionId}',
  permission: 'self:update',
  summary: "Sign out one of one's sessions (its live streams end at once); another person's is 404",
  params: sessionParams,
  responses: { 204: z.null() },
});

export const endAllSessions = account({
  method: 'POST',
  path: '/v2/user/sessions/signOutEverywhere',
  permission: 'self:update',
  allowBeforeTerms: true,
  summary:
    'Sign out everywhere: every refresh token revoked and every live stream ended at once, this session too',
  responses: { 200: signedOutResponse },
});
