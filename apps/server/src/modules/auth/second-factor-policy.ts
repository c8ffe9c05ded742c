import type { MfaChallenge, SecondFactor } from '@wearable/domain';

/** What is known of an account when its first sign-in step was right. */
export interface SecondFactorFacts {
  totp: boolean;
  passkeys: boolean;
  /** Its organisation requires TOTP of every account (`requireTotp`). */
  requireTotp: boolean;
  /**
   * Its organisation requires a second factor of its staff and the account is staff: when the grace
   * period to enrol one ends. null: no such requirement for this account.
   */
  staffGraceEndsAt: Date | null;
}

export type SecondFactorStep =
  | { kind: 'tokens'; enrolBy?: Date }
  | { kind: 'challenge'; code: MfaChallenge['code']; factors: SecondFactor[] };

/**
 * The one table of what follows a right first step (docs/decisions/0019-passkeys-and-second-factor-policy.md):
 *
 * | the account has        | organisation asks                        | then                                  |
 * | ---------------------- | ---------------------------------------- | ------------------------------------- |
 * | no TOTP                | requireTotp                              | TOTP_ENROLMENT_REQUIRED               |
 * | TOTP (and passkeys)    | anything                                 | TOTP_REQUIRED, a code or a passkey    |
 * | passkeys only          | anything but requireTotp                 | PASSKEY_REQUIRED                      |
 * | nothing                | second factor of staff, in grace period  | tokens, with the date to enrol by     |
 * | nothing                | second factor of staff, grace over       | SECOND_FACTOR_ENROLMENT_REQUIRED      |
 * | nothing                | nothing                                  | tokens                                |
 */
export function secondFactorStep(facts: SecondFactorFacts, now: Date): SecondFactorStep {
  const factors: SecondFactor[] = [
    ...(facts.totp ? (['totp'] as const) : []),
    ...(facts.passkeys ? (['passkey'] as const) : []),
  ];
  if (facts.requireTotp && !facts.totp) {
    return { kind: 'challenge', code: 'TOTP_ENROLMENT_REQUIRED', factors: [] };
  }
  if (factors.length > 0) {
    return { kind: 'challenge', code: facts.totp ? 'TOTP_REQUIRED' : 'PASSKEY_REQUIRED', factors };
  }
  if (facts.staffGraceEndsAt === null) return { kind: 'tokens' };
  if (now.getTime() < facts.staffGraceEndsAt.getTime()) {
    return { kind: 'tokens', enrolBy: facts.staffGraceEndsAt };
  }
  return { kind: 'challenge', code: 'SECOND_FACTOR_ENROLMENT_REQUIRED', factors: [] };
}
