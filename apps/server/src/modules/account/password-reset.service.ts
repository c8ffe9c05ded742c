import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { MessageLocale } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS } from '../../bus/events.js';
import { ApiError, forbidden } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { attemptLimitsService, clientKey } from '../auth/attempt-limits.service.js';
import { hashPassword, signInCodesRepository } from '../auth/auth.service.js';
import { passwordResetMail } from '../mail/mail.service.js';
import { accountRepository } from './account.repository.js';

export const PASSWORD_RESET_MINUTES = 30;
/** Reset links one typed address may ask for, and requests one client address may make, per SIGN_IN_WINDOW. */
export const RESETS_PER_ADDRESS = 5;
export const RESET_REQUESTS_PER_CLIENT = 20;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const linkError = (status: number, code: string, message: string) =>
  new ApiError(status, code, message);

/**
 * "パスワードを忘れた場合" (issue 35): a single-use link mailed to the account's address sets a new password, ends
 * every session of the account (live streams too, on every server) and forgets the password failures counted for
 * the address, so a person locked out by their own typos (or someone else's guesses) is back at once. The
 * database keeps only the token's SHA-256; the request answers the same whether or not the address has an account.
 * Offered where password sign-in is.
 */
export function passwordResetService(ctx: AppContext) {
  const codes = signInCodesRepository(ctx.db);
  const limits = attemptLimitsService(ctx);
  const offered = () => {
    if (!ctx.config.signInMethods.includes('password'))
      throw forbidden('Password sign-in is turned off here', 'METHOD_DISABLED');
  };

  return {
    async request(
      input: { email: string; locale?: MessageLocale | undefined },
      clientAddress: string,
    ): Promise<{ accepted: true }> {
      offered();
      const email = input.email.trim().toLowerCase();
      const now = ctx.now();
      await limits.take(
        [
          [`reset:email:${email}`, RESETS_PER_ADDRESS],
          [clientKey('reset', clientAddress), RESET_REQUESTS_PER_CLIENT],
        ],
        now,
      );
      const account = await codes.accountByEmail(email);
      if (!account) return { accepted: true };
      const token = randomBytes(32).toString('base64url');
      await codes.insert({
        id: randomUUID(),
        kind: 'PASSWORD_RESET',
        userId: account.id,
        sentTo: email,
        codeHash: hashToken(token),
        expiresAt: new Date(now.getTime() + PASSWORD_RESET_MINUTES * 60_000),
        createdAt: now,
      });
      const mail = passwordResetMail({
        locale: input.locale ?? account.locale,
        publicUrl: ctx.config.publicUrl,
        name: account.name,
        token,
        minutes: PASSWORD_RESET_MINUTES,
      });
      // Not awaited: an SMTP round trip would tell a caller that the account exists. The outcome is in the log.
      ctx.mail
        .send({ email, userId: account.id, organizationId: account.organizationId }, mail)
        .catch(() => undefined);
      return { accepted: true };
    },

    async reset(input: { token: string; newPassword: string }): Promise<{ sessionsEnded: number }> {
      offered();
      const now = ctx.now();
      const row = await codes.findByHash('PASSWORD_RESET', hashToken(input.token));
      const account = row && (await codes.accountById(row.userId));
      if (!row || !account)
        throw linkError(401, 'LINK_UNKNOWN', 'This reset link is not known; request a new one');
      if (row.usedAt)
        throw linkError(410, 'LINK_USED', 'This reset link was already used; request a new one');
      if (row.expiresAt.getTime() <= now.getTime()) {
        throw linkError(
          410,
          'LINK_EXPIRED',
          `This reset link expired (links last ${PASSWORD_RESET_MINUTES} minutes); request a new one`,
        );
      }
      // A link mailed to an address the account no longer has resets nothing.
      if (account.email !== row.sentTo)
        throw linkError(
          401,
          'LINK_OTHER_ADDRESS',
          'This reset link was sent to another email address',
        );
      const hash = await hashPassword(input.newPassword);
      let ended: string[] = [];
      await ctx.db.transaction(async (tx) => {
        // Consumed in the same transaction as the new password: two tabs racing with one link set one password.
        if (!(await signInCodesRepository(tx).consume(row.id, now, 1))) {
          throw linkError(410, 'LINK_USED', 'This reset link was already used; request a new one');
        }
        const repo = accountRepository(tx);
        await repo.setPasswordHash(account.id, hash);
        ended = await repo.revokeSessions(account.id, now, {});
        await signInCodesRepository(tx).markEmailVerified(account.id);
        await auditService(tx).record({
          organizationId: account.organizationId,
          actorId: account.id,
          kind: 'user.passwordReset',
          targetId: account.id,
          after: { sessionsEnded: ended.length },
        });
      });
      await limits.clearPasswordFailures(row.sentTo);
      if (ended.length)
        ctx.bus.emit(BUS_EVENTS.sessionsRevoked, { userId: account.id, sessionIds: ended });
      return { sessionsEnded: ended.length };
    },
  };
}
