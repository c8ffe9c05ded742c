import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TokenPair } from '@wearable/domain';
import { createOrganization, createUser } from '../../testing/factories.js';
import { smsTo } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterEach(() => {
  t.ctx.now = () => new Date();
});
afterAll(() => t.close());

let n = 0;
const nextNumber = () =>
  `+8190${String(10_000_000 + Math.floor(Math.random() * 80_000_000) + ++n).slice(0, 8)}`;
let address = 0;
const requestCode = (phoneNumber: string, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/auth/phoneCode',
    payload: { phoneNumber, ...extra },
    remoteAddress: `10.6.0.${++address}`,
  });
const signIn = (phoneNumber: string, code: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/auth/phoneSignIn',
    payload: { phoneNumber, code },
    remoteAddress: `10.6.1.${++address}`,
  });

async function staffWithPhone(phoneVerified = true, locale: 'ja' | 'en' = 'ja') {
  const org = await createOrganization(t);
  const phoneNumber = nextNumber();
  const user = await createUser(t, {
    role: 'ORGANIZATION_GROUP',
    organizationId: org.id,
    phoneNumber,
    phoneVerified,
    locale,
  });
  return { ...user, phoneNumber };
}

/** The code of the newest SMS to the number, from the embedded provider's outbox. */
async function codeSentTo(phoneNumber: string, count = 1): Promise<string> {
  const texts = await smsTo(t.ctx, phoneNumber, count);
  expect(texts).toHaveLength(count);
  const code = /(?:コード|code): (\d{6})/.exec(texts.at(-1) ?? '')?.[1];
  expect(code).toMatch(/^\d{6}$/);
  return code ?? '';
}

describe('phone sign-in, as a person does it', () => {
  it('texts a 6-digit code to a verified number; the code signs in once', async () => {
    const staff = await staffWithPhone();
    const asked = await requestCode(staff.phoneNumber);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ accepted: true });
    const code = await codeSentTo(staff.phoneNumber);
    expect((await smsTo(t.ctx, staff.phoneNumber))[0]).toContain('ログイン確認コード');

    const res = await signIn(staff.phoneNumber, code);
    expect(res.statusCode).toBe(200);
    const me = await t.app.inject({
      url: '/v2/user',
      headers: { authorization: `Bearer ${res.json<TokenPair>().accessToken}` },
    });
    expect(me.json()).toMatchObject({ uid: staff.uid });
    expect((await signIn(staff.phoneNumber, code)).json()).toMatchObject({ code: 'INVALID_CODE' });

    // The notification log shows the SMS to its addressee, code redacted.
    const log = await t.app.inject({ url: '/v2/notifications', headers: staff.headers });
    const [entry] = log.json<{
      notifications: Array<{ channel: string; text: string; provider: string }>;
    }>().notifications;
    expect(entry).toMatchObject({ channel: 'SMS', provider: 'embedded' });
    expect(entry?.text).toContain('[redacted]');
    expect(entry?.text).not.toContain(code);
  });

  it('answers an unverified or unknown number exactly as a verified one, and texts nothing', async () => {
    const verified = await staffWithPhone();
    const unverified = await staffWithPhone(false);
    const a = await requestCode(verified.phoneNumber);
    const b = await requestCode(unverified.phoneNumber);
    const c = await requestCode(nextNumber());
    expect([b.statusCode, c.statusCode]).toEqual([a.statusCode, a.statusCode]);
    expect(b.json()).toEqual(a.json());
    expect(await smsTo(t.ctx, unverified.phoneNumber, 1, 300)).toEqual([]);
  });

  it('kills the code after 5 wrong tries', async () => {
    const staff = await staffWithPhone();
    await requestCode(staff.phoneNumber);
    const code = await codeSentTo(staff.phoneNumber);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      expect((await signIn(staff.phoneNumber, wrong)).statusCode).toBe(401);
    const right = await signIn(staff.phoneNumber, code);
    expect(right.statusCode).toBe(401);
    expect(right.json()).toMatchObject({ code: 'INVALID_CODE' });
  });

  it('refuses a code after 5 minutes, and an older code once a new one was sent', async () => {
    const staff = await staffWithPhone();
    await requestCode(staff.phoneNumber);
    const first = await codeSentTo(staff.phoneNumber);
    t.ctx.now = () => new Date(Date.now() + 5 * 60_000 + 1000);
    expect((await signIn(staff.phoneNumber, first)).statusCode).toBe(401);
    t.ctx.now = () => new Date();

    await requestCode(staff.phoneNumber);
    const second = await codeSentTo(staff.phoneNumber, 2);
    if (second !== first) expect((await signIn(staff.phoneNumber, first)).statusCode).toBe(401);
    expect((await signIn(staff.phoneNumber, second)).statusCode).toBe(200);
  });

  it('writes the SMS in the account’s language', async () => {
    const staff = await staffWithPhone(true, 'en');
    await requestCode(staff.phoneNumber);
    await codeSentTo(staff.phoneNumber);
    expect((await smsTo(t.ctx, staff.phoneNumber))[0]).toContain('Wearable Console sign-in code');
  });

  it('sends at most 3 codes per number in the window', async () => {
    const staff = await staffWithPhone();
    for (let i = 0; i < 3; i++) expect((await requestCode(staff.phoneNumber)).statusCode).toBe(202);
    expect((await requestCode(staff.phoneNumber)).statusCode).toBe(429);
  });
});

describe('through Twilio (a local server answering as Twilio does)', () => {
  it('sends the code as an SMS by the REST API; the code signs in; the log keeps it redacted', async () => {
    const bodies: URLSearchParams[] = [];
    const fake = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(new URLSearchParams(body));
        res.statusCode = 201;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ sid: `SM${'0'.repeat(32)}`, status: 'queued' }));
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const apiBase = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const tw = await createTestApp({
      twilio: { accountSid: 'AC1', authToken: 'secret', from: '+15005550006', apiBase },
    });
    try {
      const org = await createOrganization(tw);
      const phoneNumber = nextNumber();
      const user = await createUser(tw, {
        role: 'ORGANIZATION_OWNER',
        organizationId: org.id,
        phoneNumber,
        phoneVerified: true,
      });
      await tw.app.inject({ method: 'POST', url: '/v2/auth/phoneCode', payload: { phoneNumber } });
      await expect.poll(() => bodies.length).toBe(1);
      expect(bodies[0]?.get('To')).toBe(phoneNumber);
      const code = /コード: (\d{6})/.exec(bodies[0]?.get('Body') ?? '')?.[1] ?? '';
      const res = await tw.app.inject({
        method: 'POST',
        url: '/v2/auth/phoneSignIn',
        payload: { phoneNumber, code },
      });
      expect(res.statusCode).toBe(200);
      const [row] = await tw.db.query<{ provider: string; text: string }>(
        'SELECT provider, text FROM notifications WHERE user_id = $1',
        [user.uid],
      );
      expect(row?.provider).toBe('twilio');
      expect(row?.text).not.toContain(code);
      expect(await smsTo(tw.ctx, phoneNumber, 1, 200)).toEqual([]);
    } finally {
      await tw.close();
      await new Promise((r) => fake.close(r));
    }
  });
});

describe('bad input', () => {
  it.each([
    ['/v2/auth/phoneCode', {}, 'body.phoneNumber'],
    ['/v2/auth/phoneCode', { phoneNumber: '09012345678' }, 'body.phoneNumber'],
    ['/v2/auth/phoneCode', { phoneNumber: '+819012345678', locale: 'de' }, 'body.locale'],
    ['/v2/auth/phoneSignIn', { phoneNumber: '+819012345678' }, 'body.code'],
    ['/v2/auth/phoneSignIn', { phoneNumber: '+819012345678', code: '12345' }, 'body.code'],
    ['/v2/auth/phoneSignIn', { phoneNumber: '+819012345678', code: '12345a' }, 'body.code'],
    ['/v2/auth/phoneSignIn', { phoneNumber: 'x', code: '123456' }, 'body.phoneNumber'],
  ])('%s %j is a 400 naming %s', async (url, payload, field) => {
    const res = await t.app.inject({ method: 'POST', url, payload, remoteAddress: '10.5.0.1' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: Array<{ path: string }> }>().issues.map((i) => i.path)).toContain(
      field,
    );
  });
});
