import { randomUUID } from 'node:crypto';
import type { SignInBody, SignInResult, TokenPair } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError, unauthorized } from '../../errors.js';
import { authRepository } from './auth.repository.js';
import { demoUsableFrom, isDemoAccount } from '../../db/seed/demo-credentials.js';
import { verifyPassword } from './password.js';
import { hashRefreshToken, newRefreshToken } from './token.service.js';
import { totpService } from './totp.service.js';
export { hashPassword, verifyPassword } from './password.js';
/**
 * The single-use codes' store (a factory taking the transaction): account's checks of a new phone
 * number (PHONE_VERIFY) and address (EMAIL_CHANGE) keep their codes beside sign-in's, under the same rules.
 */
export { signInCodesRepository } from './sign-in-codes.repository.js';

const invalidCredentials = () =>
  new ApiError(401, 'INVALID_CREDENTIALS', 'Email or password is incorrect');
const invalidRefresh = () =>
  unauthorized('The refresh token is invalid or expired; sign in again', 'INVALID_REFRESH_TOKEN');

/** Sign-in, refresh rotation and sign-out; knows nothing of HTTP. */
export function authService(ctx: AppContext) {
  const repo = authRepository(ctx.db);
  const tokens = ctx.tokens;
  const {
    signInMaxFailures: maxFailures,
    signInWindow: windowSeconds,
    signInAccountMaxFailures: accountMaxFailures,
    signInAccountDelayMs: accountDelayMs,
    signInAddressMaxFailures: addressMaxFailures,
  } = ctx.config;

  async function issuePair(
    userId: string,
    familyId: string,
    sessionStartedAt: Date,
    now: Date,
    store: (row: Parameters<typeof repo.insertRefreshToken>[0]) => Promise<void>,
  ): Promise<TokenPair> {
    // The session ends at sign-in + REFRESH_TOKEN_TTL however often it is refreshed.
    const expiresAt = new Date(sessionStartedAt.getTime() + ctx.config.refreshTokenTtl * 1000);
    const refresh = newRefreshToken();
    await store({
      id: randomUUID(),
      userId,
      familyId,
      tokenHash: refresh.hash,
      expiresAt,
      sessionStartedAt,
      createdAt: now,
    });
    return {
      accessToken: await tokens.issueAccessToken({ uid: userId, sessionId: familyId }),
      refreshToken: refresh.token,
      tokenType: 'Bearer',
      expiresIn: ctx.config.accessTokenTtl,
      refreshExpiresIn: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
    };
  }

  /** A new session for a user (sign-in, and test factories). */
  function startSession(userId: string): Promise<TokenPair> {
    const now = ctx.now();
    return issuePair(userId, randomUUID(), now, now, (row) => repo.insertRefreshToken(row));
  }

  /**
   * Counts this attempt in advance, against every key in one atomic statement (so concurrent
   * attempts cannot all read a count below a limit); refuses it when the account at this address is
   * over its limit. `addressKey` counts every account's failures from the address: past its much
   * higher limit attempts from there are slowed, never refused, so one person's typos behind a shared
   * NAT cannot lock out the rest of the shift (decision 0002). `accountWideKey` counts the account's
   * attempts from every address: past the soft limit each attempt waits longer (guessing slows down),
   * past the hard limit a password alone no longer signs the account in until the window passes
   * (OWASP ASVS 2.2.1).
   */
  async function reserveAttempt(
    accountKey: string,
    addressKey: string,
    accountWideKey: string,
    now: Date,
  ): Promise<void> {
    const windowMs = windowSeconds * 1000;
    const cutoff = new Date(now.getTime() - windowMs);
    const windows = new Map(
      (await repo.reserveAttempt([accountKey, addressKey, accountWideKey], now, cutoff)).map(
        (w) => [w.key, w],
      ),
    );
    // Now and then, drop ended windows so guessing from many addresses cannot grow the table forever.
    if (Math.random() < 0.01) await repo.deleteStaleFailures(cutoff);
    const endsIn = (w: { windowStart: Date }) =>
      Math.max(1, Math.ceil((w.windowStart.getTime() + windowMs - now.getTime()) / 1000));
    const here = windows.get(accountKey);
    if (here && here.failures > maxFailures) {
      const seconds = endsIn(here);
      const minutes = Math.ceil(seconds / 60);
      throw new ApiError(
        429,
        'TOO_MANY_ATTEMPTS',
        `Too many failed sign-ins for this account from this address; try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or sign in with an email link`,
        undefined,
        seconds,
      );
    }
    const accountWide = windows.get(accountWideKey);
    if (accountWide && accountWide.failures > accountMaxFailures) {
      const until = new Date(accountWide.windowStart.getTime() + windowMs);
      throw new ApiError(
        429,
        'PASSWORD_SIGN_IN_PAUSED',
        `Too many failed sign-ins for this account from several places; until ${until.toISOString()} sign in with an email link or a code by SMS`,
        undefined,
        endsIn(accountWide),
      );
    }
    // Past the soft limits every attempt waits, the owner's too: guessing slows down, and nobody
    // is refused for what others typed.
    const over = Math.max(
      (accountWide?.failures ?? 0) - 1 - maxFailures,
      (windows.get(addressKey)?.failures ?? 0) - 1 - addressMaxFailures,
    );
    if (over >= 0 && accountDelayMs > 0) {
      await new Promise((r) => setTimeout(r, Math.min(8_000, accountDelayMs * 2 ** over)));
    }
  }

  const secondFactor = totpService(ctx, startSession);

  return {
    startSession,
    /**
     * Every sign-in method ends here once its own step is right: the tokens, or the TOTP step
     * the account or its organisation needs.
     */
    completeSignIn: (userId: string) => secondFactor.completeSignIn(userId),

    async signIn(input: SignInBody, clientAddress: string): Promise<SignInResult> {
      const email = input.email.trim().toLowerCase();
      // X-Forwarded-For is the client's to write: a long one overflowed the key's index (a 500). Real
      // addresses are at most 45 characters.
      const address = clientAddress.slice(0, 64);
      // Per account AND address: guessing locks the guesser's address for that account, never the
      // owner at hers, nor colleagues behind the same address (docs/decisions/0002-tokens.md).
      // Keyed by the address typed, not the account row, so a 429 says nothing of existence.
      const accountKey = `email-ip:${email}|${address}`;
      const addressKey = `ip:${address}`;
      const accountWideKey = `email:${email}`;
      await reserveAttempt(accountKey, addressKey, accountWideKey, ctx.now());
      const account = await repo.findAccountByEmail(email);
      const ok = await verifyPassword(account?.passwordHash ?? null, input.password);
      if (!account || !ok) throw invalidCredentials();
      if (isDemoAccount(account.id) && !demoUsableFrom(ctx.config.demoPublic, address)) {
        throw new ApiError(
          403,
          'DEMO_SIGN_IN_LOCAL_ONLY',
          'Demo accounts sign in only on the machine that runs the server (DEMO_PUBLIC=true allows other machines)',
        );
      }
      await repo.clearFailures(accountKey);
      await repo.releaseAttempt(addressKey);
      // Given back, not cleared: the owner signing in must not hand a guesser a fresh allowance.
      await repo.releaseAttempt(accountWideKey);
      return secondFactor.completeSignIn(account.id);
    },

    async refresh(refreshToken: string): Promise<TokenPair> {
      const now = ctx.now();
      const row = await repo.findRefreshToken(hashRefreshToken(refreshToken));
      if (!row || row.revokedAt) throw invalidRefresh();
      if (row.rotatedAt) {
        // A rotated token used again: someone holds a copy. End the whole sign-in.
        await repo.revokeFamily(row.familyId, now);
        throw unauthorized(
          'The refresh token was already used; sign in again',
          'REFRESH_TOKEN_REUSED',
        );
      }
      if (row.expiresAt.getTime() <= now.getTime() || !(await repo.isActiveUser(row.userId))) {
        throw invalidRefresh();
      }
      const pair = await ctx.db.transaction(async (tx) => {
        const txRepo = authRepository(tx);
        if (!(await txRepo.markRotated(row.id, now))) return null;
        return issuePair(row.userId, row.familyId, row.sessionStartedAt, now, (r) =>
          txRepo.insertRefreshToken(r),
        );
      });
      if (!pair) {
        // Lost a race with another use of the same token: treat as reuse.
        await repo.revokeFamily(row.familyId, now);
        throw unauthorized(
          'The refresh token was already used; sign in again',
          'REFRESH_TOKEN_REUSED',
        );
      }
      return pair;
    },

    /** Ends the session of the given refresh token (if it is the caller's) and the current one. */
    async signOut(userId: string, sessionId: string | null, refreshToken?: string): Promise<void> {
      const now = ctx.now();
      if (refreshToken) {
        const row = await repo.findRefreshToken(hashRefreshToken(refreshToken));
        if (row && row.userId === userId) await repo.revokeFamily(row.familyId, now, userId);
      }
      if (sessionId) await repo.revokeFamily(sessionId, now, userId);
    },
  };
}
export type AuthService = ReturnType<typeof authService>;
