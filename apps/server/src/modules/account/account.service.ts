import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  type AccountView,
  type Actor,
  EMAIL_CHANGE_MINUTES,
  type MessageLocale,
  PHONE_VERIFY_ATTEMPTS,
  PHONE_VERIFY_MINUTES,
  type SessionView,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS } from '../../bus/events.js';
import { ApiError, notFound } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { attemptLimitsService } from '../auth/attempt-limits.service.js';
import { hashPassword, signInCodesRepository, verifyPassword } from '../auth/auth.service.js';
import { hashRefreshToken } from '../auth/token.service.js';
import { emailChangeMail, PRODUCT_NAME } from '../mail/mail.service.js';
import { messageLogService, redact } from '../notifications/message-log.service.js';
import { accountRepository } from './account.repository.js';
import { describeUserAgent } from './user-agent.js';
export { describeUserAgent };

/** Codes one person may ask for, and wrong current passwords they may type, per SIGN_IN_WINDOW. */
export const PHONE_VERIFY_CODES_PER_WINDOW = 5;
export const EMAIL_CHANGES_PER_WINDOW = 5;
export const PASSWORD_TRIES_PER_WINDOW = 5;

const field = (status: number, code: string, path: string, message: string) =>
  new ApiError(status, code, `${path}: ${message}`, [{ path, message }]);
const hashSecret = (salt: string, secret: string) =>
  createHash('sha256').update(`${salt}:${secret}`).digest('hex');
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const accountGone = () => notFound('The account no longer exists', 'USER_NOT_FOUND');
const sessionNotFound = (id: string) => notFound(`Session ${id} not found`, 'SESSION_NOT_FOUND');
const wrongCode = () =>
  field(
    400,
    'INVALID_CODE',
    'body.code',
    `is wrong or no longer valid; after ${PHONE_VERIFY_ATTEMPTS} wrong tries, request a new one`,
  );

const smsText = (locale: MessageLocale, code: string) =>
  locale === 'en'
    ? `${PRODUCT_NAME.en} phone number check: ${code} (valid ${PHONE_VERIFY_MINUTES} minutes). Never share it with anyone.`
    : `【${PRODUCT_NAME.ja}】電話番号の確認コード: ${code}（${PHONE_VERIFY_MINUTES}分間有効）。このコードを他人に教えないでください。`;

/**
 * One's own account (/user/info): the profile's verified fields, the password and the open sessions.
 * A new phone number is saved only with the SMS code sent to it; a new address only through the link
 * mailed to it. Every change is in the audit log with its transaction.
 */
export function accountService(ctx: AppContext) {
  const repo = accountRepository(ctx.db);
  const codes = signInCodesRepository(ctx.db);
  const limits = attemptLimitsService(ctx);

  async function own(actor: Actor) {
    const row = await repo.find(actor.uid);
    if (!row) throw accountGone();
    return row;
  }

  /** Ends sessions and, at once, their live streams (on every server through the cluster bus). */
  async function revoke(
    userId: string,
    only: { one?: string; except?: string | null },
  ): Promise<number> {
    const ended = await repo.revokeSessions(userId, ctx.now(), only);
    if (ended.length) ctx.bus.emit(BUS_EVENTS.sessionsRevoked, { userId, sessionIds: ended });
    return ended.length;
  }

  return {
    async view(actor: Actor): Promise<AccountView> {
      const row = await own(actor);
      return {
        uid: row.id,
        name: row.name,
        email: row.email,
        emailVerified: row.emailVerified,
        phoneNumber: row.phoneNumber,
        phoneVerified: row.phoneVerified,
        hasPassword: row.passwordHash !== null,
      };
    },

    async sendPhoneCode(
      actor: Actor,
      body: { phoneNumber: string; locale?: MessageLocale | undefined },
    ) {
      const row = await own(actor);
      await limits.take([[`account:phone:${actor.uid}`, PHONE_VERIFY_CODES_PER_WINDOW]], ctx.now());
      if (row.phoneNumber === body.phoneNumber && row.phoneVerified) {
        throw field(
          409,
          'PHONE_ALREADY_VERIFIED',
          'body.phoneNumber',
          'is already your verified number',
        );
      }
      if (await repo.phoneTaken(body.phoneNumber, actor.uid)) {
        throw field(
          409,
          'PHONE_TAKEN',
          'body.phoneNumber',
          'is the verified number of another account',
        );
      }
      const now = ctx.now();
      const id = randomUUID();
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const expiresAt = new Date(now.getTime() + PHONE_VERIFY_MINUTES * 60_000);
      await ctx.db.transaction(async (tx) => {
        const txCodes = signInCodesRepository(tx);
        await txCodes.voidCodes('PHONE_VERIFY', actor.uid, now);
        await txCodes.insert({
          id,
          kind: 'PHONE_VERIFY',
          userId: actor.uid,
          sentTo: body.phoneNumber,
          codeHash: hashSecret(id, code),
          expiresAt,
          createdAt: now,
        });
      });
      const text = smsText(body.locale ?? row.locale, code);
      const entry = await messageLogService(ctx.db).log(
        {
          channel: 'SMS',
          userId: actor.uid,
          organizationId: row.organizationId,
          recipient: body.phoneNumber,
          provider: ctx.phone.name,
          text: redact(text, [code]),
        },
        now,
      );
      const outcome = await ctx.phone.sendSms(body.phoneNumber, text);
      await entry.settle(
        { ...outcome, ...(outcome.error ? { error: redact(outcome.error, [code]) } : {}) },
        ctx.now(),
      );
      if (outcome.status === 'failed') {
        throw new ApiError(
          502,
          'SMS_FAILED',
          'The SMS could not be sent; check the number or try again later',
        );
      }
      return { sentTo: body.phoneNumber, expiresAt: expiresAt.toISOString() };
    },

    async verifyPhone(
      actor: Actor,
      body: { phoneNumber: string; code: string },
    ): Promise<AccountView> {
      const row = await own(actor);
      const now = ctx.now();
      const live = await codes.liveCode('PHONE_VERIFY', actor.uid, now);
      const expected = live ? Buffer.from(live.codeHash, 'hex') : Buffer.alloc(32);
      const given = Buffer.from(hashSecret(live?.id ?? '', body.code), 'hex');
      if (!live || !timingSafeEqual(expected, given)) {
        if (live) await codes.recordWrongCode(live.id, now, PHONE_VERIFY_ATTEMPTS);
        throw wrongCode();
      }
      if (live.sentTo !== body.phoneNumber) {
        throw field(
          400,
          'INVALID_CODE',
          'body.phoneNumber',
          'is not the number the code was sent to',
        );
      }
      await ctx.db.transaction(async (tx) => {
        if (!(await signInCodesRepository(tx).consume(live.id, now, PHONE_VERIFY_ATTEMPTS)))
          throw wrongCode();
        const txRepo = accountRepository(tx);
        if (await txRepo.phoneTaken(body.phoneNumber, actor.uid)) {
          throw field(
            409,
            'PHONE_TAKEN',
            'body.phoneNumber',
            'is the verified number of another account',
          );
        }
        await txRepo.setVerifiedPhone(actor.uid, body.phoneNumber);
        await auditService(tx).record({
          organizationId: row.organizationId,
          actorId: actor.uid,
          kind: 'user.phoneChange',
          targetId: actor.uid,
          before: { phoneNumber: row.phoneNumber, phoneVerified: row.phoneVerified },
          after: { phoneNumber: body.phoneNumber, phoneVerified: true },
        });
      });
      return this.view(actor);
    },

    async requestEmailChange(
      actor: Actor,
      body: { email: string; locale?: MessageLocale | undefined },
    ) {
      const row = await own(actor);
      const email = body.email.trim().toLowerCase();
      await limits.take([[`account:email:${actor.uid}`, EMAIL_CHANGES_PER_WINDOW]], ctx.now());
      if (email === row.email)
        throw field(409, 'EMAIL_UNCHANGED', 'body.email', 'is already your address');
      if (await repo.emailTaken(email, actor.uid)) {
        throw field(409, 'EMAIL_TAKEN', 'body.email', 'this address already has an account');
      }
      const now = ctx.now();
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_MINUTES * 60_000);
      await ctx.db.transaction(async (tx) => {
        const txCodes = signInCodesRepository(tx);
        // A newer request replaces the older link.
        await txCodes.voidCodes('EMAIL_CHANGE', actor.uid, now);
        await txCodes.insert({
          id: randomUUID(),
          kind: 'EMAIL_CHANGE',
          userId: actor.uid,
          sentTo: email,
          codeHash: hashToken(token),
          expiresAt,
          createdAt: now,
        });
      });
      const mail = emailChangeMail({
        locale: body.locale ?? row.locale,
        publicUrl: ctx.config.publicUrl,
        name: row.name,
        token,
        minutes: EMAIL_CHANGE_MINUTES,
      });
      await ctx.mail.send({ email, userId: actor.uid, organizationId: row.organizationId }, mail);
      return { sentTo: email, expiresAt: expiresAt.toISOString() };
    },

    /** The link's token alone proves the mailbox; unknown, used, replaced and expired links each say so. */
    async confirmEmailChange(token: string): Promise<{ email: string }> {
      const now = ctx.now();
      const row = await codes.findByHash('EMAIL_CHANGE', hashToken(token));
      if (!row)
        throw new ApiError(
          404,
          'LINK_UNKNOWN',
          'This link is not known; ask for a new one on your registration info page',
        );
      if (row.usedAt)
        throw new ApiError(
          410,
          'LINK_USED',
          'This link was already used or replaced by a newer one',
        );
      if (row.expiresAt.getTime() <= now.getTime()) {
        throw new ApiError(
          410,
          'LINK_EXPIRED',
          `This link expired (links last ${EMAIL_CHANGE_MINUTES} minutes); ask for a new one`,
        );
      }
      const account = await repo.find(row.userId);
      if (!account)
        throw new ApiError(
          404,
          'LINK_UNKNOWN',
          'This link is not known; ask for a new one on your registration info page',
        );
      await ctx.db.transaction(async (tx) => {
        if (!(await signInCodesRepository(tx).consume(row.id, now, 1))) {
          throw new ApiError(
            410,
            'LINK_USED',
            'This link was already used or replaced by a newer one',
          );
        }
        const txRepo = accountRepository(tx);
        if (await txRepo.emailTaken(row.sentTo, row.userId)) {
          throw new ApiError(409, 'EMAIL_TAKEN', 'This address has an account of its own by now');
        }
        await txRepo.setVerifiedEmail(row.userId, row.sentTo);
        // Sign-in links sent to the old address stop working.
        await signInCodesRepository(tx).voidCodes('EMAIL_LINK', row.userId, now);
        await auditService(tx).record({
          organizationId: account.organizationId,
          actorId: row.userId,
          kind: 'user.emailChange',
          targetId: row.userId,
          before: { email: account.email },
          after: { email: row.sentTo },
        });
      });
      return { email: row.sentTo };
    },

    /** A new password: the current one is required; the other sessions end (this one stays). */
    async changePassword(
      actor: Actor,
      sessionId: string | null,
      body: { currentPassword: string; newPassword: string },
    ) {
      const row = await own(actor);
      const key = `account:password:${actor.uid}`;
      await limits.take([[key, PASSWORD_TRIES_PER_WINDOW]], ctx.now());
      if (!(await verifyPassword(row.passwordHash, body.currentPassword))) {
        throw field(400, 'WRONG_PASSWORD', 'body.currentPassword', 'is not your current password');
      }
      await limits.release(key);
      const hash = await hashPassword(body.newPassword);
      const now = ctx.now();
      let ended: string[] = [];
      await ctx.db.transaction(async (tx) => {
        const txRepo = accountRepository(tx);
        await txRepo.setPasswordHash(actor.uid, hash);
        ended = await txRepo.revokeSessions(actor.uid, now, { except: sessionId });
        await auditService(tx).record({
          organizationId: row.organizationId,
          actorId: actor.uid,
          kind: 'user.passwordChange',
          targetId: actor.uid,
          after: { otherSessionsEnded: ended.length },
        });
      });
      if (ended.length)
        ctx.bus.emit(BUS_EVENTS.sessionsRevoked, { userId: actor.uid, sessionIds: ended });
      return { ended: ended.length };
    },

    async sessions(actor: Actor, sessionId: string | null): Promise<SessionView[]> {
      return (await repo.liveSessions(actor.uid, ctx.now())).map((s) => ({
        id: s.id,
        current: s.id === sessionId,
        userAgent: s.userAgent,
        ...describeUserAgent(s.userAgent),
        createdAt: new Date(s.createdAt).toISOString(),
        lastUsedAt: new Date(s.lastUsedAt).toISOString(),
        expiresAt: new Date(s.expiresAt).toISOString(),
      }));
    },

    /** Another person's session id, an ended one and an unknown one are the same 404. */
    async endSession(actor: Actor, id: string): Promise<void> {
      const live = await repo.liveSessions(actor.uid, ctx.now());
      if (!live.some((s) => s.id === id)) throw sessionNotFound(id);
      await revoke(actor.uid, { one: id });
    },

    /** Every session of the person, this one included: refresh tokens revoked and live streams ended at once. */
    async endAllSessions(actor: Actor): Promise<{ ended: number }> {
      return { ended: await revoke(actor.uid, {}) };
    },

    /** Records the client of a session a sign-in or refresh just issued (the onSend hook). */
    recordClient: (refreshToken: string, userAgent: string) =>
      repo.setUserAgent(hashRefreshToken(refreshToken), userAgent.slice(0, 512)),
  };
}
