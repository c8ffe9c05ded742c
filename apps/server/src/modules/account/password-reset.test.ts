import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser } from '../../testing/factories.js';
import { mailsIn } from '../../testing/mail-outbox.js';
import { connectSse, until } from '../../testing/sse-client.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { PASSWORD_RESET_MINUTES } from './password-reset.service.js';

/** "パスワードを忘れた場合" (issue 35 item 4): a mailed link sets a new password and signs out every session. */
let t: TestApp;
let base: string;
beforeAll(async () => {
  // A low account-wide cap, so one person's typos reach it in a few tries.
  t = await createTestApp({
    publicUrl: 'http://console.example.test',
    signInMaxFailures: 3,
    signInAccountMaxFailures: 4,
    signInAccountDelayMs: 0,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  t.ctx.now = () => new Date();
});
afterAll(() => t.close());

let address = 0;
const requestReset = (email: string, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/auth/passwordReset',
    payload: { email, ...extra },
    remoteAddress: `10.9.0.${++address}`,
  });
const reset = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/v2/auth/passwordReset/confirm', payload });
const signIn = (email: string, password: string, remoteAddress = '10.9.1.1') =>
  t.app.inject({
    method: 'POST',
    url: '/v2/auth/signIn',
    payload: { email, password },
    remoteAddress,
  });
const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

async function staff(locale: 'ja' | 'en' = 'ja') {
  const org = await createOrganization(t);
  return createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id, locale });
}

/** The token of the newest reset link mailed to the address, read from its .eml file as a person would. */
async function resetTokenFor(email: string, count = 1): Promise<string> {
  const mails = await mailsIn(t.ctx, email);
  expect(mails).toHaveLength(count);
  const link = mails.at(-1)?.links.find((l) => l.includes('/reset-password#')) ?? '';
  expect(link).toMatch(/^http:\/\/console\.example\.test\/reset-password#reset=[\w-]{43}$/);
  return new URL(link).hash.slice('#reset='.length);
}

describe('a password reset by mailed link', () => {
  it('sets the new password, ends every session and live stream, and the link works once', async () => {
    const me = await staff();
    const other = (await signIn(me.email, me.password)).json<{
      accessToken: string;
      refreshToken: string;
    }>();
    const ticket = (
      await t.app.inject({
        method: 'POST',
        url: '/v3/live/ticket',
        headers: bearer(other.accessToken),
      })
    ).json<{ ticket: string }>().ticket;
    const stream = connectSse(`${base}/v3/live?ticket=${ticket}`);
    await until(() => (stream.status() ? true : undefined));
    expect(stream.status()).toBe(200);

    const asked = await requestReset(me.email);
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ accepted: true });
    const [mail] = await mailsIn(t.ctx, me.email);
    expect(mail?.subject).toBe('[ウェアラブル見守りコンソール] パスワードの再設定');
    // The plain-text part stands on its own: no "button below" without a button.
    expect(mail?.text).not.toMatch(/ボタン/);
    expect(mail?.text).toContain('すべての端末からログアウトします');
    const token = await resetTokenFor(me.email);

    const done = await reset({ token, newPassword: 'a-fresh-password-2026' });
    expect(done.statusCode, done.body).toBe(200);
    // Both sessions: the factory's and the sign-in above.
    expect(done.json()).toEqual({ sessionsEnded: 2 });
    await until(() => (stream.isEnded() ? true : undefined));
    for (const token of [me.refreshToken, other.refreshToken]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/auth/refresh',
        payload: { refreshToken: token },
      });
      expect(res.statusCode).toBe(401);
    }
    expect(
      (await t.app.inject({ url: '/v2/user', headers: bearer(other.accessToken) })).statusCode,
    ).toBe(401);
    expect((await signIn(me.email, me.password)).statusCode).toBe(401);
    expect((await signIn(me.email, 'a-fresh-password-2026')).statusCode).toBe(200);

    const again = await reset({ token, newPassword: 'yet-another-password-2026' });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'LINK_USED' });
    expect((await signIn(me.email, 'a-fresh-password-2026')).statusCode).toBe(200);

    const audit = await t.db.query<{ after: unknown }>(
      `SELECT after FROM audit_log WHERE kind = 'user.passwordReset' AND target_id = $1`,
      [me.uid],
    );
    expect(audit.map((a) => a.after)).toEqual([{ sessionsEnded: 2 }]);
  });

  it('unlocks an account its own typos had capped, at every address', async () => {
    const me = await staff();
    for (let i = 0; i < 6; i++) await signIn(me.email, 'not-my-password', `10.9.2.${i}`);
    const capped = await signIn(me.email, me.password, '10.9.2.99');
    expect(capped.statusCode).toBe(429);
    await requestReset(me.email);
    const done = await reset({
      token: await resetTokenFor(me.email),
      newPassword: 'back-in-business-2026',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await signIn(me.email, 'back-in-business-2026', '10.9.2.0')).statusCode).toBe(200);
  });

  it('answers an unknown address as a known one and mails nothing; in English for an English page', async () => {
    const unknown = await requestReset('nobody-here@example.test');
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual({ accepted: true });
    expect(await mailsIn(t.ctx, 'nobody-here@example.test')).toEqual([]);

    const me = await staff('ja');
    await requestReset(me.email.toUpperCase(), { locale: 'en' });
    const [mail] = await mailsIn(t.ctx, me.email);
    expect(mail?.subject).toBe('[Wearable Console] Reset your password');
    expect(mail?.text).toContain('signs this account out on every device');
  });

  it('refuses an expired, unknown or superseded-address link, a short password and bad bodies, naming what is wrong', async () => {
    const me = await staff();
    await requestReset(me.email);
    const token = await resetTokenFor(me.email);

    const short = await reset({ token, newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toMatch(/newPassword/);
    expect(short.body).toMatch(/at least 12 characters/);
    // The refused attempt did not use the link up.
    t.ctx.now = () => new Date(Date.now() + (PASSWORD_RESET_MINUTES + 1) * 60_000);
    const expired = await reset({ token, newPassword: 'long-enough-password' });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ code: 'LINK_EXPIRED' });
    t.ctx.now = () => new Date();

    const unknown = await reset({ token: 'x'.repeat(43), newPassword: 'long-enough-password' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: 'LINK_UNKNOWN' });

    for (const body of [
      {},
      { token },
      { token: 'bad token!', newPassword: 'long-enough-password' },
    ]) {
      const res = await reset(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const badEmail = await requestReset('not-an-address');
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.body).toMatch(/email/);

    // The address changed after the link was mailed: the link resets nothing.
    await t.db.query('UPDATE users SET email = $2 WHERE id = $1', [me.uid, `moved-${me.email}`]);
    const moved = await reset({ token, newPassword: 'long-enough-password' });
    expect(moved.statusCode).toBe(401);
    expect(moved.json()).toMatchObject({ code: 'LINK_OTHER_ADDRESS' });
    expect((await signIn(`moved-${me.email}`, me.password)).statusCode).toBe(200);
  });

  it('is limited per typed address: the sixth request in the window is 429', async () => {
    const me = await staff();
    for (let i = 0; i < 5; i++) expect((await requestReset(me.email)).statusCode).toBe(202);
    const sixth = await requestReset(me.email);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });

  it('two tabs racing with one link set one password', async () => {
    const me = await staff();
    await requestReset(me.email);
    const token = await resetTokenFor(me.email);
    const [a, b] = await Promise.all([
      reset({ token, newPassword: 'first-tab-password-1' }),
      reset({ token, newPassword: 'second-tab-password-2' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 410]);
    const won = a.statusCode === 200 ? 'first-tab-password-1' : 'second-tab-password-2';
    const lost = a.statusCode === 200 ? 'second-tab-password-2' : 'first-tab-password-1';
    expect((await signIn(me.email, won)).statusCode).toBe(200);
    expect((await signIn(me.email, lost)).statusCode).toBe(401);
  });
});
