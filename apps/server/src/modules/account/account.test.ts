import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_VERIFY_ATTEMPTS } from '@wearable/domain';
import { BUS_EVENTS } from '../../bus/events.js';
import { createUser } from '../../testing/factories.js';
import { mailsIn, smsTo } from '../../testing/mail-outbox.js';
import { connectSse, type SseClient, until } from '../../testing/sse-client.js';
import { ACTOR_NAMES, buildWorld, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/** /user/info: one's own name, phone (SMS code), email (link), password and sessions, for every role. */
let t: TestApp;
let w: World;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  t.ctx.now = () => new Date();
});
afterAll(() => t.close());

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

let n = 0;
const nextNumber = () =>
  `+8180${String(10_000_000 + Math.floor(Math.random() * 80_000_000) + ++n).slice(0, 8)}`;
const as = (
  headers: Record<string, string>,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const person = () =>
  createUser(t, {
    role: 'ORGANIZATION_GENERAL',
    organizationId: w.orgA,
    email: `me-${Date.now()}-${++n}@account.example.test`,
  });
const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

async function signIn(email: string, password: string, userAgent = CHROME_WINDOWS) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/auth/signIn',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
  });
  return res;
}
const refresh = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/v2/auth/refresh', payload: { refreshToken } });

async function codeSentTo(phoneNumber: string, count = 1): Promise<string> {
  const texts = await smsTo(t.ctx, phoneNumber, count);
  expect(texts).toHaveLength(count);
  return /(?:コード|check): (\d{6})/.exec(texts.at(-1) ?? '')?.[1] ?? '';
}
async function tokenMailedTo(email: string, count = 1): Promise<string> {
  const mails = await mailsIn(t.ctx, email);
  expect(mails).toHaveLength(count);
  const link = mails.at(-1)?.links.find((l) => l.includes('/verify-email#')) ?? '';
  expect(link).toMatch(/\/verify-email#token=[\w-]{43}$/);
  return new URL(link).hash.slice('#token='.length);
}
const audit = async (kind: string, uid: string) =>
  (await as(w.users.ALL_OWNER.headers, 'GET', `/v2/audit?kind=${kind}&pageSize=200`))
    .json<{ entries: { targetId: string; before: unknown; after: unknown }[] }>()
    .entries.filter((e) => e.targetId === uid);

describe("every role reads its own account and sessions, nobody else's", () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const me = w.users[who];
    const account = await as(me.headers, 'GET', '/v2/user/account');
    expect(account.statusCode, account.body).toBe(200);
    expect(account.json()).toMatchObject({
      uid: me.uid,
      name: me.name,
      email: me.email,
      hasPassword: true,
    });
    const sessions = await as(me.headers, 'GET', '/v2/user/sessions');
    expect(sessions.statusCode).toBe(200);
    expect(
      sessions.json<{ sessions: { current: boolean }[] }>().sessions.filter((s) => s.current),
    ).toHaveLength(1);
    // Another person's session: the same 404 as an unknown id.
    const other = w.users[who === 'ALL_OWNER' ? 'PERSONAL_SELF' : 'ALL_OWNER'];
    const [theirs] = (await as(other.headers, 'GET', '/v2/user/sessions')).json<{
      sessions: { id: string }[];
    }>().sessions;
    expect((await as(me.headers, 'DELETE', `/v2/user/sessions/${theirs!.id}`)).statusCode).toBe(
      404,
    );
    expect((await as(me.headers, 'DELETE', '/v2/user/sessions/no-such-session')).statusCode).toBe(
      404,
    );
  });

  it('needs a bearer token', async () => {
    for (const url of ['/v2/user/account', '/v2/user/sessions'])
      expect((await t.app.inject({ url })).statusCode).toBe(401);
  });
});

describe('name', () => {
  it('is edited with PATCH /v3/user/update and refused empty', async () => {
    const me = await person();
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/v3/user/update',
      headers: me.headers,
      payload: { name: '新しい 名前' },
    });
    expect(res.statusCode).toBe(200);
    expect((await as(me.headers, 'GET', '/v2/user/account')).json()).toMatchObject({
      name: '新しい 名前',
    });
    const empty = await t.app.inject({
      method: 'PATCH',
      url: '/v3/user/update',
      headers: me.headers,
      payload: { name: '  ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('name');
  });
});

describe('phone number, verified by an SMS code before it is saved', () => {
  it('a code to the new number saves it once; the audit log has it', async () => {
    const me = await person();
    const phoneNumber = nextNumber();
    const sent = await as(me.headers, 'POST', '/v2/user/account/phone/code', {
      phoneNumber,
      locale: 'en',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await as(me.headers, 'GET', '/v2/user/account')).json()).toMatchObject({
      phoneNumber: null,
      phoneVerified: false,
    });
    const code = await codeSentTo(phoneNumber);
    expect(code).toMatch(/^\d{6}$/);
    const saved = await as(me.headers, 'POST', '/v2/user/account/phone/verify', {
      phoneNumber,
      code,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ phoneNumber, phoneVerified: true });
    // Reused: refused.
    const again = await as(me.headers, 'POST', '/v2/user/account/phone/verify', {
      phoneNumber,
      code,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('body.code');
    expect(await audit('user.phoneChange', me.uid)).toEqual([
      expect.objectContaining({
        before: { phoneNumber: null, phoneVerified: false },
        after: { phoneNumber, phoneVerified: true },
      }),
    ]);
    // The verified number now signs in by SMS code.
    expect(
      (await t.app.inject({ method: 'POST', url: '/v2/auth/phoneCode', payload: { phoneNumber } }))
        .statusCode,
    ).toBe(202);
  });

  it('an expired code, a code for another number and too many wrong codes are refused; nothing is saved', async () => {
    const me = await person();
    const phoneNumber = nextNumber();
    await as(me.headers, 'POST', '/v2/user/account/phone/code', { phoneNumber });
    const code = await codeSentTo(phoneNumber);
    const other = await as(me.headers, 'POST', '/v2/user/account/phone/verify', {
      phoneNumber: nextNumber(),
      code,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toContain('body.phoneNumber');
    t.ctx.now = () => new Date(Date.now() + 5 * 60_000 + 1_000);
    expect(
      (await as(me.headers, 'POST', '/v2/user/account/phone/verify', { phoneNumber, code }))
        .statusCode,
    ).toBe(400);
    t.ctx.now = () => new Date();

    const second = nextNumber();
    await as(me.headers, 'POST', '/v2/user/account/phone/code', { phoneNumber: second });
    const right = await codeSentTo(second);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < PHONE_VERIFY_ATTEMPTS; i++) {
      expect(
        (
          await as(me.headers, 'POST', '/v2/user/account/phone/verify', {
            phoneNumber: second,
            code: wrong,
          })
        ).statusCode,
      ).toBe(400);
    }
    expect(
      (
        await as(me.headers, 'POST', '/v2/user/account/phone/verify', {
          phoneNumber: second,
          code: right,
        })
      ).statusCode,
    ).toBe(400);
    expect((await as(me.headers, 'GET', '/v2/user/account')).json()).toMatchObject({
      phoneNumber: null,
      phoneVerified: false,
    });
  });

  it("another account's verified number is 409; bad input is 400 naming the field", async () => {
    const taken = nextNumber();
    await createUser(t, {
      role: 'ORGANIZATION_GENERAL',
      organizationId: w.orgA,
      phoneNumber: taken,
      phoneVerified: true,
    });
    const me = await person();
    const res = await as(me.headers, 'POST', '/v2/user/account/phone/code', { phoneNumber: taken });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PHONE_TAKEN' });
    for (const [payload, named] of [
      [{ phoneNumber: '090-1234-5678' }, 'phoneNumber'],
      [{}, 'phoneNumber'],
      [{ phoneNumber: nextNumber(), extra: 1 }, 'extra'],
    ] as const) {
      const bad = await as(me.headers, 'POST', '/v2/user/account/phone/code', payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain(named);
    }
    const bad = await as(me.headers, 'POST', '/v2/user/account/phone/verify', {
      phoneNumber: nextNumber(),
      code: '12ab56',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('code');
  });
});

describe('email address, changed by a link mailed to the new address', () => {
  it('takes effect only when the link is opened, once; the new address signs in', async () => {
    const me = await person();
    const next = `new-${++n}@account.example.test`;
    const sent = await as(me.headers, 'POST', '/v2/user/account/email/change', {
      email: next.toUpperCase(),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await as(me.headers, 'GET', '/v2/user/account')).json()).toMatchObject({
      email: me.email,
    });
    const token = await tokenMailedTo(next);
    const confirm = () =>
      t.app.inject({ method: 'POST', url: '/v2/auth/emailChange/confirm', payload: { token } });
    const done = await confirm();
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ email: next });
    expect((await as(me.headers, 'GET', '/v2/user/account')).json()).toMatchObject({
      email: next,
      emailVerified: true,
    });
    expect((await confirm()).json()).toMatchObject({ code: 'LINK_USED' });
    expect((await signIn(next, me.password)).statusCode).toBe(200);
    expect((await signIn(me.email, me.password)).statusCode).toBe(401);
    expect(await audit('user.emailChange', me.uid)).toEqual([
      expect.objectContaining({ before: { email: me.email }, after: { email: next } }),
    ]);
  });

  it('expired, replaced and unknown links each say so; a taken address is 409; bad input 400', async () => {
    const me = await person();
    const first = `first-${++n}@account.example.test`;
    await as(me.headers, 'POST', '/v2/user/account/email/change', { email: first });
    const expired = await tokenMailedTo(first);
    t.ctx.now = () => new Date(Date.now() + 61 * 60_000);
    const late = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/emailChange/confirm',
      payload: { token: expired },
    });
    expect([late.statusCode, late.json().code]).toEqual([410, 'LINK_EXPIRED']);
    t.ctx.now = () => new Date();

    await as(me.headers, 'POST', '/v2/user/account/email/change', { email: first });
    const replaced = await tokenMailedTo(first, 2);
    await as(me.headers, 'POST', '/v2/user/account/email/change', { email: first });
    const newest = await tokenMailedTo(first, 3);
    const old = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/emailChange/confirm',
      payload: { token: replaced },
    });
    expect([old.statusCode, old.json().code]).toEqual([410, 'LINK_USED']);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v2/auth/emailChange/confirm',
          payload: { token: newest },
        })
      ).statusCode,
    ).toBe(200);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/emailChange/confirm',
      payload: { token: 'x'.repeat(43) },
    });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'LINK_UNKNOWN']);

    const taken = await as(me.headers, 'POST', '/v2/user/account/email/change', {
      email: w.users.ORGANIZATION_OWNER.email,
    });
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'EMAIL_TAKEN']);
    const bad = await as(me.headers, 'POST', '/v2/user/account/email/change', {
      email: 'not an address',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('email');
    const badToken = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/emailChange/confirm',
      payload: { token: '<script>' },
    });
    expect(badToken.statusCode).toBe(400);
  });
});

describe('password', () => {
  it('needs the current one and 12+ characters; the other sessions end, this one stays', async () => {
    const me = await person();
    const other = (await signIn(me.email, me.password)).json<{
      refreshToken: string;
      accessToken: string;
    }>();
    const wrong = await as(me.headers, 'POST', '/v2/user/account/password', {
      currentPassword: 'not-it-at-all',
      newPassword: 'a-brand-new-pass-2026',
    });
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'WRONG_PASSWORD']);
    expect(wrong.json().message).toContain('body.currentPassword');
    const short = await as(me.headers, 'POST', '/v2/user/account/password', {
      currentPassword: me.password,
      newPassword: 'short-pass',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('newPassword');

    const ok = await as(me.headers, 'POST', '/v2/user/account/password', {
      currentPassword: me.password,
      newPassword: 'a-brand-new-pass-2026',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ ended: 1 });
    expect((await signIn(me.email, me.password)).statusCode).toBe(401);
    expect((await signIn(me.email, 'a-brand-new-pass-2026')).statusCode).toBe(200);
    expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/v2/user', headers: bearer(other.accessToken) })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ url: '/v2/user', headers: me.headers })).statusCode).toBe(200);
    expect(
      (await audit('user.passwordChange', me.uid)).map((e) => JSON.stringify(e)),
    ).not.toContain('a-brand-new-pass-2026');
  });
});

describe('sessions', () => {
  async function ticketStream(accessToken: string): Promise<SseClient> {
    const ticket = (
      await t.app.inject({ method: 'POST', url: '/v3/live/ticket', headers: bearer(accessToken) })
    ).json<{ ticket: string }>().ticket;
    const client = connectSse(`${base}/v3/live?ticket=${ticket}`);
    await until(() => (client.status() ? true : undefined));
    expect(client.status()).toBe(200);
    return client;
  }

  it('lists device and browser, created and last used, this one marked; signs out one', async () => {
    const me = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: w.orgA });
    const phone = (await signIn(me.email, me.password, SAFARI_IPHONE)).json<{
      accessToken: string;
      refreshToken: string;
    }>();
    const desk = (await signIn(me.email, me.password, CHROME_WINDOWS)).json<{
      accessToken: string;
      refreshToken: string;
    }>();
    // A refresh keeps the session and moves its last use.
    const rotated = (
      await t.app.inject({
        method: 'POST',
        url: '/v2/auth/refresh',
        payload: { refreshToken: phone.refreshToken },
        headers: { 'user-agent': SAFARI_IPHONE },
      })
    ).json<{ accessToken: string; refreshToken: string }>();
    const list = (await as(bearer(desk.accessToken), 'GET', '/v2/user/sessions')).json<{
      sessions: {
        id: string;
        current: boolean;
        browser: string | null;
        os: string | null;
        createdAt: string;
        lastUsedAt: string;
      }[];
    }>().sessions;
    expect(list).toHaveLength(3);
    const current = list.find((s) => s.current)!;
    expect(current).toMatchObject({ browser: 'Chrome', os: 'Windows' });
    const iphone = list.find((s) => s.os === 'iOS')!;
    expect(iphone.browser).toBe('Safari');
    expect(iphone.lastUsedAt >= iphone.createdAt).toBe(true);

    const stream = await ticketStream(rotated.accessToken);
    expect(
      (await as(bearer(desk.accessToken), 'DELETE', `/v2/user/sessions/${iphone.id}`)).statusCode,
    ).toBe(204);
    await until(() => (stream.isEnded() ? true : undefined));
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
    expect(
      (await as(bearer(desk.accessToken), 'GET', '/v2/user/sessions')).json<{
        sessions: unknown[];
      }>().sessions,
    ).toHaveLength(2);
    // Already ended: 404.
    expect(
      (await as(bearer(desk.accessToken), 'DELETE', `/v2/user/sessions/${iphone.id}`)).statusCode,
    ).toBe(404);
  });

  it('sign out everywhere revokes every refresh token and ends every live stream at once', async () => {
    const me = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: w.orgA });
    const bystander = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: w.orgA });
    const other = (await signIn(me.email, me.password)).json<{
      accessToken: string;
      refreshToken: string;
    }>();
    const streams = [await ticketStream(me.accessToken), await ticketStream(other.accessToken)];
    const theirs = await ticketStream(bystander.accessToken);
    const revoked: string[][] = [];
    const onRevoked = (e: { sessionIds: string[] }) => revoked.push(e.sessionIds);
    t.ctx.bus.on(BUS_EVENTS.sessionsRevoked, onRevoked);
    try {
      const res = await as(me.headers, 'POST', '/v2/user/sessions/signOutEverywhere');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ended: 2 });
    } finally {
      t.ctx.bus.off(BUS_EVENTS.sessionsRevoked, onRevoked);
    }
    expect(revoked.flat()).toHaveLength(2);
    await Promise.all(streams.map((s) => until(() => (s.isEnded() ? true : undefined))));
    for (const token of [me.refreshToken, other.refreshToken])
      expect((await refresh(token)).statusCode).toBe(401);
    for (const token of [me.accessToken, other.accessToken]) {
      expect((await t.app.inject({ url: '/v2/user', headers: bearer(token) })).statusCode).toBe(
        401,
      );
    }
    expect(theirs.isEnded()).toBe(false);
    theirs.close();
  });

  it('the event alone ends a stream whose session still lives in the database (not the periodic check)', async () => {
    const me = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: w.orgA });
    const stream = await ticketStream(me.accessToken);
    const [session] = (await as(me.headers, 'GET', '/v2/user/sessions')).json<{
      sessions: { id: string }[];
    }>().sessions;
    t.ctx.bus.emit(BUS_EVENTS.sessionsRevoked, { userId: me.uid, sessionIds: [session!.id] });
    await until(() => (stream.isEnded() ? true : undefined));
    expect((await t.app.inject({ url: '/v2/user', headers: me.headers })).statusCode).toBe(200);
  });
});
