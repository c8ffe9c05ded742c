import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { MessageLocale, SignInResult } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { signInLinkMail } from '../mail/mail.service.js';
import { authRepository } from './auth.repository.js';
import { clientKey, requestLimits } from './request-limits.js';
import { signInCodesRepository } from './sign-in-codes.repository.js';

export const EMAIL_LINK_MINUTES = 15;
/** Links one typed address may ask for, and requests one client address may make, per SIGN_IN_WINDOW. */
export const LINKS_PER_ADDRESS = 5;
export const REQUESTS_PER_CLIENT = 20;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const linkError = (status: number, code: string, message: string) =>
  new ApiError(status, code, message);

/**
 * Email-link sign-in: a single-use link valid 15 minutes, mailed to an account's address; the
 * database keeps only the token's SHA-256. `finish` issues the session (the same as password sign-in).
 */
export function emailLinkService(
  ctx: AppContext,
  finish: (userId: string) => Promise<SignInResult>,
) {
  const codes = signInCodesRepository(ctx.db);
  const limits = requestLimits(authRepository(ctx.db), ctx.config.signInWindow);

  return {
    /** Same answer, and no mail wait, whether or not the address has an account. */
    async request(
      input: { email: string; locale?: MessageLocale | undefined },
      clientAddress: string,
    ): Promise<{ accepted: true }> {
      const email = input.email.trim().toLowerCase();
      const now = ctx.now();
      const keys: Array<[string, number]> = [
        [`link:email:${email}`, LINKS_PER_ADDRESS],
        [clientKey('link', clientAddress), REQUESTS_PER_CLIENT],
      ];
      await limits.take(keys, now);
      const account = await codes.accountByEmail(email);
      if (!account) return { accepted: true };
      const token = randomBytes(32).toString('base64url');
      await codes.insert({
        id: randomUUID(),
        kind: 'EMAIL_LINK',
        userId: account.id,
        sentTo: email,
        codeHash: hashToken(token),
        expiresAt: new Date(now.getTime() + EMAIL_LINK_MINUTES * 60_000),
        createdAt: now,
      });
      if (Math.random() < 0.01) await codes.deleteEnded(new Date(now.getTime() - 24 * 3_600_000));
      const mail = signInLinkMail({
        locale: input.locale ?? account.locale,
        publicUrl: ctx.config.publicUrl,
        name: account.name,
        token,
        minutes: EMAIL_LINK_MINUTES,
      });
      // Not awaited: an SMTP round trip would tell a caller that the account exists. The outcome is in the log.
      ctx.mail
        .send({ email, userId: account.id, organizationId: account.organizationId }, mail)
        .catch(() => undefined);
      return { accepted: true };
    },

    /** Unknown, used, expired and other-address links each have their own code, for their own page. */
    async verify(input: { token: string; email?: string | undefined }): Promise<SignInResult> {
      const now = ctx.now();
      const row = await codes.findByHash('EMAIL_LINK', hashToken(input.token));
      const account = row && (await codes.accountById(row.userId));
      if (!row || !account)
        throw linkError(401, 'LINK_UNKNOWN', 'This sign-in link is not known; request a new one');
      if (row.usedAt)
        throw linkError(410, 'LINK_USED', 'This sign-in link was already used; request a new one');
      if (row.expiresAt.getTime() <= now.getTime()) {
        throw linkError(
          410,
          'LINK_EXPIRED',
          `This sign-in link expired (links last ${EMAIL_LINK_MINUTES} minutes); request a new one`,
        );
      }
      const asked = input.email?.trim().toLowerCase();
      // The link names the address it was sent to; a link for another address (or for an address the
      // account no longer has) does not sign this person in.
      if ((asked !== undefined && asked !== row.sentTo) || account.email !== row.sentTo) {
        throw linkError(
          401,
          'LINK_OTHER_ADDRESS',
          'This sign-in link was sent to another email address',
        );
      }
      if (!(await codes.consume(row.id, now, 1))) {
        throw linkError(410, 'LINK_USED', 'This sign-in link was already used; request a new one');
      }
      await codes.markEmailVerified(account.id);
      return finish(account.id);
    },
  };
}
