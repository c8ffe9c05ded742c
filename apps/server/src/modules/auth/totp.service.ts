import QRCode from 'qrcode';
import { Secret, TOTP } from 'otpauth';
import type {
  Actor,
  SignInResult,
  TokenPair,
  TotpSetupResponse,
  TotpStatus,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError, conflict, unauthorized } from '../../errors.js';
import { authRepository } from './auth.repository.js';
import { secretBoxService } from './secret-box.service.js';
import { secondFactorStep } from './second-factor-policy.js';
import { signInChallenges } from './sign-in-challenges.js';
import { totpRepository } from './totp.repository.js';

const ISSUER = 'Wearable console';
const CHALLENGE_TTL_SECONDS = 300;
/** Wrong codes one challenge takes before the sign-in must start over. */
const CHALLENGE_MAX_ATTEMPTS = 5;

const invalidChallenge = () =>
  unauthorized(
    'The sign-in step has expired or was already used; sign in again',
    'INVALID_CHALLENGE',
  );
const wrongCode = () =>
  new ApiError(401, 'INVALID_TOTP_CODE', 'The code is incorrect; check the app and try again');

/**
 * The TOTP second factor: a user's own setup, and the second step of every sign-in method.
 * startSession issues the tokens once every step is done (auth.service hands it in).
 */
export function totpService(ctx: AppContext, startSession: (userId: string) => Promise<TokenPair>) {
  const repo = totpRepository(ctx.db);
  const failures = authRepository(ctx.db);
  const box = secretBoxService(ctx);
  const challenges = signInChallenges(ctx.db, () => ctx.now());

  const totpOf = (secret: string, label: string) =>
    new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), digits: 6, period: 30 });

  /** The 30-second step the code belongs to (one step either side), or null. */
  async function stepOf(sealed: string, code: string): Promise<number | null> {
    const totp = totpOf(await box.open(sealed), '');
    const timestamp = ctx.now().getTime();
    const delta = totp.validate({ token: code, timestamp, window: 1 });
    return delta === null ? null : totp.counter({ timestamp }) + delta;
  }

  // Wrong codes count per account within SIGN_IN_WINDOW, across challenges and the settings calls,
  // so asking for new challenges (the password is known) does not give unlimited guesses. Each try
  // is counted before the code is checked (atomically), so parallel guesses cannot pass the limit.
  async function checkCode(userId: string, sealed: string, code: string): Promise<number> {
    const key = `totp:${userId}`;
    const now = ctx.now();
    const cutoff = new Date(now.getTime() - ctx.config.signInWindow * 1000);
    const [window] = await failures.reserveAttempt([key], now, cutoff);
    if (window && window.failures > ctx.config.signInMaxFailures) {
      throw new ApiError(429, 'TOO_MANY_ATTEMPTS', 'Too many wrong codes; try again later');
    }
    const step = await stepOf(sealed, code);
    if (step === null || !(await repo.acceptStep(userId, step))) throw wrongCode();
    await failures.clearFailures(key);
    return step;
  }

  async function newSecret(userId: string, label: string): Promise<TotpSetupResponse> {
    const secret = new Secret({ size: 20 }).base32;
    if (!(await repo.savePending(userId, await box.seal(secret), ctx.now()))) {
      throw conflict('A second factor is already on; turn it off first', 'TOTP_ALREADY_ENABLED');
    }
    const otpauthUri = totpOf(secret, label).toString();
    const svg = await QRCode.toString(otpauthUri, { type: 'svg', margin: 1 });
    return {
      otpauthUri,
      secret,
      qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    };
  }

  /** TOTP cannot be turned off: the organisation requires it, or a second factor and this is the only one. */
  const cannotTurnOff = (state: Awaited<ReturnType<typeof repo.secondFactorState>>) =>
    state.required || (state.staffGraceEndsAt !== null && !state.hasPasskeys);

  async function status(actor: Actor): Promise<TotpStatus> {
    const state = await repo.secondFactorState(actor.uid);
    return { enabled: state.enabled, requiredByOrganization: cannotTurnOff(state) };
  }

  return {
    status,

    /** After a right first step: the tokens, or the second step this account needs. */
    async completeSignIn(userId: string): Promise<SignInResult> {
      const state = await repo.secondFactorState(userId);
      const step = secondFactorStep(
        {
          totp: state.enabled,
          passkeys: state.hasPasskeys,
          requireTotp: state.required,
          staffGraceEndsAt: state.staffGraceEndsAt,
        },
        ctx.now(),
      );
      if (step.kind === 'tokens') {
        const pair = await startSession(userId);
        return step.enrolBy ? { ...pair, secondFactorEnrolBy: step.enrolBy.toISOString() } : pair;
      }
      const challenge = await challenges.issue(userId, step.code, CHALLENGE_TTL_SECONDS);
      return {
        mfaRequired: true,
        code: step.code,
        challenge,
        expiresIn: CHALLENGE_TTL_SECONDS,
        factors: step.factors,
      };
    },

    /** The second step: a code for the challenge; an enrolment challenge also turns TOTP on. */
    async verify(challenge: string, code: string): Promise<TokenPair> {
      const row = await challenges.find(challenge, [
        'TOTP_REQUIRED',
        'TOTP_ENROLMENT_REQUIRED',
        'SECOND_FACTOR_ENROLMENT_REQUIRED',
      ]);
      const totp = row && (await repo.find(row.userId));
      if (!row || !totp) throw invalidChallenge();
      const enrolling = row.purpose !== 'TOTP_REQUIRED';
      if (enrolling === (totp.enabledAt !== null)) throw invalidChallenge();
      let step: number;
      try {
        step = await checkCode(row.userId, totp.secretEncrypted, code);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'INVALID_TOTP_CODE') {
          await challenges.recordWrongAnswer(row.tokenHash, CHALLENGE_MAX_ATTEMPTS);
        }
        throw err;
      }
      if (!(await challenges.consume(challenge, [row.purpose]))) throw invalidChallenge();
      if (enrolling) await repo.enable(row.userId, step, ctx.now());
      return startSession(row.userId);
    },

    /** The enrolment an organisation requires, before the account has any tokens. */
    async enrol(challenge: string): Promise<TotpSetupResponse> {
      const row = await challenges.find(challenge, [
        'TOTP_ENROLMENT_REQUIRED',
        'SECOND_FACTOR_ENROLMENT_REQUIRED',
      ]);
      if (!row) throw invalidChallenge();
      const state = await repo.secondFactorState(row.userId);
      return newSecret(row.userId, state.email ?? row.userId);
    },

    async setup(actor: Actor): Promise<TotpSetupResponse> {
      const state = await repo.secondFactorState(actor.uid);
      return newSecret(actor.uid, state.email ?? actor.uid);
    },

    async enable(actor: Actor, code: string): Promise<TotpStatus> {
      const totp = await repo.find(actor.uid);
      if (!totp || totp.enabledAt) {
        throw conflict(
          totp ? 'The second factor is already on' : 'Start with POST /v2/auth/totp/setup',
          totp ? 'TOTP_ALREADY_ENABLED' : 'TOTP_NOT_SET_UP',
        );
      }
      const step = await checkCode(actor.uid, totp.secretEncrypted, code);
      await repo.enable(actor.uid, step, ctx.now());
      return status(actor);
    },

    async disable(actor: Actor, code: string): Promise<TotpStatus> {
      const state = await repo.secondFactorState(actor.uid);
      const totp = await repo.find(actor.uid);
      if (!totp?.enabledAt) throw conflict('The second factor is not on', 'TOTP_NOT_ENABLED');
      if (cannotTurnOff(state)) {
        throw conflict(
          'Your organisation requires a second factor',
          'TOTP_REQUIRED_BY_ORGANIZATION',
        );
      }
      await checkCode(actor.uid, totp.secretEncrypted, code);
      await repo.remove(actor.uid);
      return status(actor);
    },
  };
}
export type TotpService = ReturnType<typeof totpService>;
