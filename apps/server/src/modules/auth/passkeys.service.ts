import { randomUUID } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  type Actor,
  isPasskeyTransport,
  type PasskeyList,
  type PasskeyView,
  type TokenPair,
  type passkeyAuthenticationResponse,
  type passkeyCreationOptions,
  type passkeyRegistrationResponse,
  type passkeyRequestOptions,
} from '@wearable/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { ApiError, badRequest, conflict, notFound, unauthorized } from '../../errors.js';
import { demoUsableFrom, isDemoAccount } from '../../db/seed/demo-credentials.js';
import { authRepository } from './auth.repository.js';
import { type PasskeyRow, passkeysRepository } from './passkeys.repository.js';
import { clientKey, requestLimits } from './request-limits.js';
import { relyingPartyOf } from './relying-party.js';
import { signInChallenges } from './sign-in-challenges.js';
import { totpRepository } from './totp.repository.js';

/** How long a WebAuthn challenge may be answered (the browser's own timeout is a minute less). */
const CEREMONY_TTL_SECONDS = 300;
const TIMEOUT_MS = (CEREMONY_TTL_SECONDS - 60) * 1000;
/** Wrong assertions one sign-in step takes before the sign-in must start over (as TOTP's codes). */
const CHALLENGE_MAX_ATTEMPTS = 5;

type RegistrationAnswer = z.output<typeof passkeyRegistrationResponse>;
type CreationOptions = z.input<typeof passkeyCreationOptions>;
type RequestOptions = z.input<typeof passkeyRequestOptions>;

/** The library writes a credential's type and transports as strings: the contract's words. */
const descriptorsOf = (list: { id: string; transports?: string[] }[] | undefined) =>
  list?.map((d) => ({
    id: d.id,
    type: 'public-key' as const,
    ...(d.transports ? { transports: d.transports.filter(isPasskeyTransport) } : {}),
  }));
const creationOf = (o: PublicKeyCredentialCreationOptionsJSON): CreationOptions => ({
  ...o,
  pubKeyCredParams: o.pubKeyCredParams.map((p) => ({ alg: p.alg, type: 'public-key' })),
  excludeCredentials: descriptorsOf(o.excludeCredentials),
  hints: undefined,
  extensions: { credProps: true },
});
const requestOf = (o: PublicKeyCredentialRequestOptionsJSON): RequestOptions => ({
  ...o,
  allowCredentials: descriptorsOf(o.allowCredentials),
  hints: undefined,
});
type AuthenticationAnswer = z.output<typeof passkeyAuthenticationResponse>;

const invalidStep = () =>
  unauthorized(
    'The sign-in step has expired or was already used; sign in again',
    'INVALID_CHALLENGE',
  );
const invalidCeremony = () =>
  unauthorized(
    'The passkey challenge has expired, was already used, or was not handed out for this; start again',
    'PASSKEY_CHALLENGE_INVALID',
  );
const unknownPasskey = () =>
  unauthorized('This passkey is not registered here (or was removed)', 'PASSKEY_UNKNOWN');
const refused = (why: string) =>
  unauthorized(`The passkey's answer was refused: ${why}`, 'PASSKEY_VERIFICATION_FAILED');

/** The challenge the browser signed, read from its clientDataJSON (verified afterwards by the library). */
function challengeIn(clientDataJSON: string): string {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (typeof data === 'object' && data !== null && 'challenge' in data) {
      const { challenge } = data;
      if (typeof challenge === 'string' && challenge.length > 0) return challenge;
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw badRequest('response.clientDataJSON is not the JSON a browser writes', 'VALIDATION_FAILED');
}

const registrationOf = (answer: RegistrationAnswer): RegistrationResponseJSON => ({
  id: answer.id,
  rawId: answer.rawId,
  type: answer.type,
  response: answer.response,
  clientExtensionResults: {},
  ...(answer.authenticatorAttachment
    ? { authenticatorAttachment: answer.authenticatorAttachment }
    : {}),
});
const authenticationOf = (answer: AuthenticationAnswer): AuthenticationResponseJSON => ({
  id: answer.id,
  rawId: answer.rawId,
  type: answer.type,
  response: answer.response,
  clientExtensionResults: {},
  ...(answer.authenticatorAttachment
    ? { authenticatorAttachment: answer.authenticatorAttachment }
    : {}),
});

const viewOf = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * Passkeys (WebAuthn, decision 0019): one's own list, registration and removal; signing in with one
 * without a name typed; a sign-in's second step answered with one; and the enrolment of one when the
 * organisation requires a second factor. startSession issues the tokens (auth.service hands it in).
 */
export function passkeysService(
  ctx: AppContext,
  startSession: (userId: string) => Promise<TokenPair>,
) {
  const repo = passkeysRepository(ctx.db);
  const accounts = authRepository(ctx.db);
  // A name-less sign-in's options write a challenge row for anyone who asks: counted per client
  // address (SIGN_IN_ADDRESS_MAX_FAILURES in SIGN_IN_WINDOW); a sign-in that works gives its back.
  const limits = requestLimits(accounts, ctx.config.signInWindow);
  const optionsKey = (clientAddress: string) => clientKey('passkey-options', clientAddress);
  const factors = totpRepository(ctx.db);
  const steps = signInChallenges(ctx.db, () => ctx.now());
  const rp = relyingPartyOf(ctx.config.publicUrl);

  async function creationOptions(
    userId: string,
    purpose: 'REGISTER' | 'ENROL',
  ): Promise<CreationOptions> {
    const state = await factors.secondFactorState(userId);
    const existing = await repo.listOf(userId);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: state.email ?? userId,
      userID: Buffer.from(userId, 'utf8'),
      userDisplayName: state.email ?? userId,
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      // A discoverable credential with user verification: it alone signs in, no name typed.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await repo.issueChallenge(options.challenge, purpose, userId, ctx.now(), CEREMONY_TTL_SECONDS);
    return creationOf(options);
  }

  async function requestOptions(
    userId: string | null,
    purpose: 'SIGN_IN' | 'SECOND_FACTOR',
  ): Promise<RequestOptions> {
    const allow = userId === null ? [] : await repo.listOf(userId);
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      timeout: TIMEOUT_MS,
      userVerification: purpose === 'SIGN_IN' ? 'required' : 'preferred',
      allowCredentials: allow.map((p) => ({ id: p.credentialId, transports: p.transports })),
    });
    await repo.issueChallenge(options.challenge, purpose, userId, ctx.now(), CEREMONY_TTL_SECONDS);
    return requestOf(options);
  }

  /** Checks a new passkey's answer against a challenge handed out to the user, and stores it. */
  async function register(
    userId: string,
    purpose: 'REGISTER' | 'ENROL',
    name: string,
    answer: RegistrationAnswer,
  ): Promise<PasskeyRow> {
    const challenge = challengeIn(answer.response.clientDataJSON);
    if (!(await repo.consumeChallenge(challenge, purpose, userId, ctx.now()))) {
      throw invalidCeremony();
    }
    let info;
    try {
      const result = await verifyRegistrationResponse({
        response: registrationOf(answer),
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
      if (!result.verified) throw refused('not verified');
      info = result.registrationInfo;
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw refused(err instanceof Error ? err.message : 'not verified');
    }
    const row = {
      id: randomUUID(),
      userId,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: answer.response.transports ?? [],
      name,
      createdAt: ctx.now(),
    };
    if (!(await repo.insert(row))) {
      throw conflict('This passkey is already registered', 'PASSKEY_ALREADY_REGISTERED');
    }
    return { ...row, lastUsedAt: null };
  }

  /**
   * Checks an assertion against a challenge handed out for the purpose (to that user, or to nobody in
   * particular for a sign-in without a name), and against the stored key; the owner's id.
   */
  async function assert(
    answer: AuthenticationAnswer,
    purpose: 'SIGN_IN' | 'SECOND_FACTOR',
    userId: string | null,
  ): Promise<string> {
    const challenge = challengeIn(answer.response.clientDataJSON);
    if (!(await repo.consumeChallenge(challenge, purpose, userId, ctx.now()))) {
      throw invalidCeremony();
    }
    const passkey = await repo.findByCredential(answer.id);
    if (!passkey || (userId !== null && passkey.userId !== userId)) throw unknownPasskey();
    // A discoverable credential names its owner (the user handle given at registration): it must agree.
    const handle = answer.response.userHandle;
    if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== passkey.userId) {
      throw unknownPasskey();
    }
    try {
      const result = await verifyAuthenticationResponse({
        response: authenticationOf(answer),
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: purpose === 'SIGN_IN',
        credential: {
          id: passkey.credentialId,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: passkey.counter,
          transports: passkey.transports,
        },
      });
      if (!result.verified) throw refused('not verified');
      await repo.markUsed(passkey.id, result.authenticationInfo.newCounter, ctx.now());
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw refused(err instanceof Error ? err.message : 'not verified');
    }
    return passkey.userId;
  }

  /** A sign-in's second step (or enrolment) in progress, else 401 INVALID_CHALLENGE. */
  async function stepOf(
    token: string,
    purposes: Array<'TOTP_REQUIRED' | 'PASSKEY_REQUIRED' | 'SECOND_FACTOR_ENROLMENT_REQUIRED'>,
  ) {
    const row = await steps.find(token, purposes);
    if (!row) throw invalidStep();
    return row;
  }

  return {
    async list(actor: Actor): Promise<PasskeyList> {
      const rows = await repo.listOf(actor.uid);
      const state = await factors.secondFactorState(actor.uid);
      const enrolled = state.enabled || rows.length > 0;
      const graceEnds = state.staffGraceEndsAt;
      return {
        passkeys: rows.map(viewOf),
        secondFactor: {
          required: graceEnds !== null || state.required,
          enrolled,
          enrolBy:
            graceEnds && graceEnds.getTime() > ctx.now().getTime() ? graceEnds.toISOString() : null,
        },
      };
    },

    startRegistration: (actor: Actor) => creationOptions(actor.uid, 'REGISTER'),

    async register(actor: Actor, name: string, answer: RegistrationAnswer): Promise<PasskeyView> {
      return viewOf(await register(actor.uid, 'REGISTER', name, answer));
    },

    async remove(actor: Actor, passkeyId: string): Promise<void> {
      const rows = await repo.listOf(actor.uid);
      // Another person's passkey is not found, whoever asks: passkeys are only ever one's own.
      if (!rows.some((p) => p.id === passkeyId))
        throw notFound('No such passkey', 'PASSKEY_NOT_FOUND');
      const state = await factors.secondFactorState(actor.uid);
      if (state.staffGraceEndsAt !== null && !state.enabled && rows.length === 1) {
        throw conflict(
          'Your organisation requires a second factor: add another passkey or TOTP before removing the last one',
          'SECOND_FACTOR_REQUIRED_BY_ORGANIZATION',
        );
      }
      if (!(await repo.remove(actor.uid, passkeyId))) {
        throw notFound('No such passkey', 'PASSKEY_NOT_FOUND');
      }
    },

    async startSignIn(clientAddress: string): Promise<RequestOptions> {
      await limits.take(
        [[optionsKey(clientAddress), ctx.config.signInAddressMaxFailures]],
        ctx.now(),
      );
      return requestOptions(null, 'SIGN_IN');
    },

    /** A passkey with user verification is two factors in itself: the tokens, whatever the policy. */
    async signIn(answer: AuthenticationAnswer, clientAddress: string): Promise<TokenPair> {
      const userId = await assert(answer, 'SIGN_IN', null);
      if (!(await accounts.isActiveUser(userId))) throw unknownPasskey();
      // As for the password: demo accounts sign in only on the server's machine (DEMO_PUBLIC).
      if (
        isDemoAccount(userId) &&
        !demoUsableFrom(ctx.config.demoPublic, clientAddress.slice(0, 64))
      ) {
        throw new ApiError(
          403,
          'DEMO_SIGN_IN_LOCAL_ONLY',
          'Demo accounts sign in only on the machine that runs the server (DEMO_PUBLIC=true allows other machines)',
        );
      }
      await limits.release(optionsKey(clientAddress));
      return startSession(userId);
    },

    async startStep(token: string): Promise<RequestOptions> {
      const row = await stepOf(token, ['TOTP_REQUIRED', 'PASSKEY_REQUIRED']);
      if ((await repo.listOf(row.userId)).length === 0) {
        throw conflict('The account has no passkey; answer with a TOTP code', 'NO_PASSKEY');
      }
      return requestOptions(row.userId, 'SECOND_FACTOR');
    },

    async verifyStep(token: string, answer: AuthenticationAnswer): Promise<TokenPair> {
      const row = await stepOf(token, ['TOTP_REQUIRED', 'PASSKEY_REQUIRED']);
      try {
        await assert(answer, 'SECOND_FACTOR', row.userId);
      } catch (err) {
        if (err instanceof ApiError && err.statusCode === 401) {
          await steps.recordWrongAnswer(row.tokenHash, CHALLENGE_MAX_ATTEMPTS);
        }
        throw err;
      }
      if (!(await steps.consume(token, [row.purpose]))) throw invalidStep();
      return startSession(row.userId);
    },

    async startEnrolment(token: string): Promise<CreationOptions> {
      const row = await stepOf(token, ['SECOND_FACTOR_ENROLMENT_REQUIRED']);
      return creationOptions(row.userId, 'ENROL');
    },

    async enrol(token: string, name: string, answer: RegistrationAnswer): Promise<TokenPair> {
      const row = await stepOf(token, ['SECOND_FACTOR_ENROLMENT_REQUIRED']);
      await register(row.userId, 'ENROL', name, answer);
      if (!(await steps.consume(token, [row.purpose]))) throw invalidStep();
      return startSession(row.userId);
    },
  };
}
export type PasskeysService = ReturnType<typeof passkeysService>;
