import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  MIN_PASSWORD_LENGTH,
  SIGN_IN_CODE_PATTERN,
} from '../field-rules.js';
import { phoneNumber } from './notifications.js';

/** Sign-in methods an operator may offer (SIGN_IN_METHODS); OIDC is configured on its own. */
export const SIGN_IN_METHODS = ['password', 'emailLink', 'phone'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** The language of mails and SMS a person receives. */
export const MESSAGE_LOCALES = ['ja', 'en'] as const;
export type MessageLocale = (typeof MESSAGE_LOCALES)[number];

/** GET /v2/auth/methods: what the login page offers. */
export const signInMethodsResponse = z.object({
  methods: z.array(z.enum(SIGN_IN_METHODS)),
  /** The OpenID Connect button, when an issuer is configured (null until then). */
  oidc: z.object({ displayName: z.string() }).nullable(),
});
export type SignInMethodsResponse = z.infer<typeof signInMethodsResponse>;

/** POST /v2/auth/emailLink: mail a single-use sign-in link (15 minutes) to the address. */
export const emailLinkBody = z.object({
  email: z.email({ pattern: EMAIL_PATTERN }).max(EMAIL_MAX_LENGTH),
  /** The language of the mail (the login page's); default the account's. */
  locale: z.enum(MESSAGE_LOCALES).optional(),
});
/** The one answer of a link or code request, whether or not the address or number belongs to an account. */
export const signInCodeAccepted = z.object({ accepted: z.literal(true) });

/** POST /v2/auth/emailLink/verify: the token from the link's fragment (/verify#signin=<token>). */
export const emailLinkVerifyBody = z.object({
  token: z
    .string()
    .min(16)
    .max(128)
    .regex(/^[\w-]+$/, 'must be the token from the sign-in link'),
  /** The address the person asked the link for (remembered by the browser): a link for another is refused. */
  email: z.email({ pattern: EMAIL_PATTERN }).max(EMAIL_MAX_LENGTH).optional(),
});

/** POST /v2/auth/phoneCode: SMS a 6-digit code (5 minutes) to a verified phone number. */
export const phoneCodeBody = z.object({
  phoneNumber,
  locale: z.enum(MESSAGE_LOCALES).optional(),
});

/** POST /v2/auth/phoneSignIn. */
export const phoneSignInBody = z.object({
  phoneNumber,
  code: z.string().regex(SIGN_IN_CODE_PATTERN, 'must be the 6 digits of the SMS'),
});

/** POST /v2/auth/passwordReset: mail a single-use link (30 minutes) that sets a new password. */
export const passwordResetRequestBody = emailLinkBody;

/** POST /v2/auth/passwordReset/confirm: the token from the link's fragment (/reset-password#reset=<token>). */
export const passwordResetBody = z.strictObject({
  token: z
    .string()
    .min(16)
    .max(128)
    .regex(/^[\w-]+$/, 'must be the token from the password reset link'),
  newPassword: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(256),
});
/** The password is set and every session of the account ended (live streams included). */
export const passwordResetDone = z.object({ sessionsEnded: z.number().int().min(0) });
