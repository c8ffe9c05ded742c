import { describe, expect, it } from 'vitest';
import { type SecondFactorFacts, secondFactorStep } from './second-factor-policy.js';

const NOW = new Date('2026-12-03T00:00:00Z');
const LATER = new Date('2026-12-10T00:00:00Z');
const EARLIER = new Date('2026-11-30T00:00:00Z');
const none: SecondFactorFacts = {
  totp: false,
  passkeys: false,
  requireTotp: false,
  staffGraceEndsAt: null,
};

/** The table of second-factor-policy.ts, row by row (decision 0019). */
describe('what follows a right first step', () => {
  it.each<[string, Partial<SecondFactorFacts>, ReturnType<typeof secondFactorStep>]>([
    ['nothing asked, nothing held', {}, { kind: 'tokens' }],
    ['TOTP', { totp: true }, { kind: 'challenge', code: 'TOTP_REQUIRED', factors: ['totp'] }],
    [
      'TOTP and a passkey',
      { totp: true, passkeys: true },
      { kind: 'challenge', code: 'TOTP_REQUIRED', factors: ['totp', 'passkey'] },
    ],
    [
      'a passkey only',
      { passkeys: true },
      { kind: 'challenge', code: 'PASSKEY_REQUIRED', factors: ['passkey'] },
    ],
    [
      'requireTotp, nothing held',
      { requireTotp: true },
      { kind: 'challenge', code: 'TOTP_ENROLMENT_REQUIRED', factors: [] },
    ],
    [
      'requireTotp, a passkey only: TOTP itself is required',
      { requireTotp: true, passkeys: true },
      { kind: 'challenge', code: 'TOTP_ENROLMENT_REQUIRED', factors: [] },
    ],
    [
      'staff policy in its grace period, nothing held',
      { staffGraceEndsAt: LATER },
      { kind: 'tokens', enrolBy: LATER },
    ],
    [
      'staff policy after its grace period, nothing held',
      { staffGraceEndsAt: EARLIER },
      { kind: 'challenge', code: 'SECOND_FACTOR_ENROLMENT_REQUIRED', factors: [] },
    ],
    [
      'staff policy ending this instant',
      { staffGraceEndsAt: NOW },
      { kind: 'challenge', code: 'SECOND_FACTOR_ENROLMENT_REQUIRED', factors: [] },
    ],
    [
      'staff policy, a passkey held',
      { staffGraceEndsAt: EARLIER, passkeys: true },
      { kind: 'challenge', code: 'PASSKEY_REQUIRED', factors: ['passkey'] },
    ],
  ])('%s', (_, facts, expected) => {
    expect(secondFactorStep({ ...none, ...facts }, NOW)).toEqual(expected);
  });
});
