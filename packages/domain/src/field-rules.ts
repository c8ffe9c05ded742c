/**
 * The rules of the sign-in fields as plain patterns, without zod: the login page checks a typo before a
 * round trip without loading the schemas (issue 20: /login within 120 kB gzip of JavaScript). The zod
 * contracts are built from these same patterns, so the page and the server apply one rule.
 */

/** The longest address a mail can carry (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** zod's own e-mail pattern (`z.regexes.email`), given to `z.email({ pattern })` by the contracts. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
/** E.164, as carriers expect it. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
/** The 6 digits of a sign-in SMS. */
export const SIGN_IN_CODE_PATTERN = /^\d{6}$/;

/** An address `emailLinkBody` accepts. */
export const isEmailAddress = (value: string): boolean =>
  value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
/** A number `phoneCodeBody` accepts. */
export const isE164PhoneNumber = (value: string): boolean => E164_PATTERN.test(value);
/** A code `phoneSignInBody` accepts. */
export const isSignInCode = (value: string): boolean => SIGN_IN_CODE_PATTERN.test(value);

/** The shortest password a registration, a change or a reset accepts. */
export const MIN_PASSWORD_LENGTH = 12;
