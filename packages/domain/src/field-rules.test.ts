import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailLinkBody, phoneCodeBody, phoneSignInBody } from './contracts/sign-in-methods.js';
import { isE164PhoneNumber, isEmailAddress, isSignInCode } from './field-rules.js';

// The login page checks with the plain rules, the server with the contracts: they must agree on every
// value, or the page would let through what the server refuses (or refuse what it accepts).
const emails = [
  'ops@example.com',
  'first.last+tag@sub.example.co.jp',
  "o'brien@example.org",
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.jp`, // 254 characters
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.jp`, // 255 characters
  '',
  'ops',
  'ops@',
  '@example.com',
  'ops@example',
  'ops@example.c',
  '.ops@example.com',
  'o..ps@example.com',
  'ops.@example.com',
  'ops@-example.com',
  'ops @example.com',
  'ops@example.com ',
  'ops@exa_mple.com',
  'オペ@example.com',
];
const phones = ['+819012345678', '+1234567', '+123456789012345'];
const badPhones = [
  '+123456',
  '+1234567890123456',
  '+0123456789',
  '819012345678',
  '+81 90 1234 5678',
  '',
  '+８１９０１２３４５６７８',
];
const codes = ['123456', '000000', '12345', '1234567', '12345a', ' 123456', '１２３４５６', ''];

describe('field rules agree with the sign-in contracts', () => {
  it.each(emails)('email %j', (email) => {
    expect(isEmailAddress(email)).toBe(emailLinkBody.safeParse({ email }).success);
  });

  it.each([...phones, ...badPhones])('phone number %j', (phoneNumber) => {
    expect(isE164PhoneNumber(phoneNumber)).toBe(phoneCodeBody.safeParse({ phoneNumber }).success);
  });

  it.each(codes)('SMS code %j', (code) => {
    const body = { phoneNumber: '+819012345678', code };
    expect(isSignInCode(code)).toBe(phoneSignInBody.safeParse(body).success);
  });

  it('accepts and refuses some of each, so the agreement is not vacuous', () => {
    expect(emails.filter(isEmailAddress)).toHaveLength(4);
    expect(phones.every(isE164PhoneNumber)).toBe(true);
    expect(badPhones.some(isE164PhoneNumber)).toBe(false);
    expect(codes.filter(isSignInCode)).toEqual(['123456', '000000']);
  });

  it('uses the pattern of zod itself for addresses', () => {
    // A zod upgrade that changes its e-mail rule shows here, not as a disagreement in production.
    expect(z.email().safeParse('ops@example.com').success).toBe(true);
    for (const email of emails)
      expect(isEmailAddress(email)).toBe(z.email().max(254).safeParse(email).success);
  });
});
