import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { MessageLocale, SignInResult } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { PRODUCT_NAME } from '../mail/mail.service.js';
import { messageLogService, redact } from '../notifications/message-log.service.js';
import { authRepository } from './auth.repository.js';
import { clientKey, requestLimits } from './request-limits.js';
import { signInCodesRepository } from './sign-in-codes.repository.js';

export const PHONE_CODE_MINUTES = 5;
/** Wrong codes before a code is dead. */
export const PHONE_CODE_ATTEMPTS = 5;
/** Codes one number may be sent, and requests/wrong codes one client address may make, per SIGN_IN_WINDOW. */
export const CODES_PER_NUMBER = 3;
export const PHONE_REQUESTS_PER_CLIENT = 20;

// Salted with the row id: the same code in two rows has two hashes. A 6-digit code's hash resists
// little on its own; its worth is the 5 minutes and the attempt limit.
const hashCode = (id: string, code: string) =>
  createHash('sha256').update(`${id}:${code}`).digest('hex');

const smsText = (locale: MessageLocale, code: string) =>
  locale === 'en'
    ? `${PRODUCT_NAME.en} sign-in code: ${code} (valid ${PHONE_CODE_MINUTES} minutes). Never share it with anyone.`
    : `【${PRODUCT_NAME.ja}】ログイン確認コード: ${code}（${PHONE_CODE_MINUTES}分間有効）。このコードを他人に教えないでください。`;

const invalidCode = () =>
  new ApiError(
    401,
    'INVALID_CODE',
    `The code is wrong or no longer valid; after ${PHONE_CODE_ATTEMPTS} wrong tries, request a new one`,
  );

/** Phone sign-in: a 6-digit SMS code (5 minutes, 5 tries) to a verified number, through ctx.phone. */
export function phoneCodeService(
  ctx: AppContext,
  finish: (userId: string) => Promise<SignInResult>,
) {
  const codes = signInCodesRepository(ctx.db);
  const limits = requestLimits(authRepository(ctx.db), ctx.config.signInWindow);

  async function sendSms(
    to: string,
    userId: string,
    organizationId: string | null,
    text: string,
    code: string,
  ) {
    const entry = await messageLogService(ctx.db).log(
      {
        channel: 'SMS',
        userId,
        organizationId,
        recipient: to,
        provider: ctx.phone.name,
        text: redact(text, [code]),
      },
      ctx.now(),
    );
    const outcome = await ctx.phone.sendSms(to, text);
    await entry.settle(
      { ...outcome, ...(outcome.error ? { error: redact(outcome.error, [code]) } : {}) },
      ctx.now(),
    );
  }

  return {
    /** Same answer, and no carrier wait, whether or not the number belongs to an account. */
    async request(
      input: { phoneNumber: string; locale?: MessageLocale | undefined },
      clientAddress: string,
    ): Promise<{ accepted: true }> {
      const now = ctx.now();
      const keys: Array<[string, number]> = [
        [`code:phone:${input.phoneNumber}`, CODES_PER_NUMBER],
        [clientKey('code', clientAddress), PHONE_REQUESTS_PER_CLIENT],
      ];
      await limits.take(keys, now);
      const account = await codes.accountByVerifiedPhone(input.phoneNumber);
      if (!account) return { accepted: true };
      const id = randomUUID();
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await codes.voidCodes('PHONE_CODE', account.id, now);
      await codes.insert({
        id,
        kind: 'PHONE_CODE',
        userId: account.id,
        sentTo: input.phoneNumber,
        codeHash: hashCode(id, code),
        expiresAt: new Date(now.getTime() + PHONE_CODE_MINUTES * 60_000),
        createdAt: now,
      });
      const text = smsText(input.locale ?? account.locale, code);
      sendSms(input.phoneNumber, account.id, account.organizationId, text, code).catch(
        () => undefined,
      );
      return { accepted: true };
    },

    /** One answer for an unknown number, no code, a wrong, expired or dead code. */
    async signIn(
      input: { phoneNumber: string; code: string },
      clientAddress: string,
    ): Promise<SignInResult> {
      const now = ctx.now();
      const clientLimit: [string, number] = [
        clientKey('code', clientAddress),
        PHONE_REQUESTS_PER_CLIENT,
      ];
      // Counted before the code is checked (concurrent guesses cannot slip under the limit); a right code gives it back.
      await limits.take([clientLimit], now);
      const account = await codes.accountByVerifiedPhone(input.phoneNumber);
      const row = account && (await codes.liveCode('PHONE_CODE', account.id, now));
      const expected = row ? Buffer.from(row.codeHash, 'hex') : Buffer.alloc(32);
      const given = Buffer.from(hashCode(row?.id ?? '', input.code), 'hex');
      if (!row || row.sentTo !== input.phoneNumber || !timingSafeEqual(expected, given)) {
        if (row) await codes.recordWrongCode(row.id, now, PHONE_CODE_ATTEMPTS);
        throw invalidCode();
      }
      if (!(await codes.consume(row.id, now, PHONE_CODE_ATTEMPTS))) throw invalidCode();
      await limits.release(clientLimit[0]);
      return finish(row.userId);
    },
  };
}
