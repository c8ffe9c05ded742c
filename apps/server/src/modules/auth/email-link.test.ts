import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TokenPair } from '@wearable/domain';
import { createOrganization, createUser } from '../../testing/factories.js';
import { mailsIn } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
const realNow = () => new Date();
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'http://console.example.test' });
});
afterEach(() => {
  t.ctx.now = realNow;
});
afterAll(() => t.close());

let address = 0;
const requestLink = (email: string, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/auth/emailLink',
    payload: { email, ...extra },
    remoteAddress: `10.7.0.${++address}`,
  });
const verify = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/v2/auth/emailLink/verify', payload });

async function newStaff(opts: { locale?: 'ja' | 'en' } = {}) {
  const org = await createOrganization(t);
  return createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id, ...opts });
}

/** The token of the newest link mailed to the address, read from its .eml file as a person would. */
async function linkTokenFor(email: string): Promise<string> {
  const mails = await mailsIn(t.ctx, email);
  const link = mails.at(-1)?.links.find((l) => l.includes('/verify#'));
  expect(link).toMatch(/^http:\/\/console\.example\.test\/verify#signin=[\w-]{43}$/);
  return new URL(link ?? '').hash.slice('#signin='.length);
}

describe('email-link sign-in, as a person does it', () => {
  it('mails a link; opening it signs the person in once; the same link again is refused', async () => {
    const staff = await newStaff();
    const asked = await requestLink(staff.email);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ accepted: true });
    const token = await linkTokenFor(staff.email);
    const [mail] = await mailsIn(t.ctx, staff.email);
    expect(mail?.subject).toBe('[ウェアラブル見守りコンソール] ログイン用リンク');

    const signedIn = await verify({ token, email: staff.email });
    expect(signedIn.statusCode).toBe(200);
    const pair = signedIn.json<TokenPair>();
    expect(pair).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    const me = await t.app.inject({
      url: '/v2/user',
      headers: { authorization: `Bearer ${pair.accessToken}` },
    });
    expect(me.json()).toMatchObject({ uid: staff.uid });

    const again = await verify({ token });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'LINK_USED' });
  });

  it('ends in the TOTP step when the organisation requires a second factor, as password sign-in does', async () => {
    const org = await createOrganization(t);
    await t.db.query('UPDATE organizations SET require_totp = true WHERE id = $1', [org.id]);
    const staff = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id });
    await requestLink(staff.email);
    const res = await verify({ token: await linkTokenFor(staff.email) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ mfaRequired: true, code: 'TOTP_ENROLMENT_REQUIRED' });
    expect(res.json()).not.toHaveProperty('accessToken');
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const staff = await newStaff();
    const known = await requestLink(staff.email);
    const unknown = await requestLink('nobody-at-all@example.test');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(await mailsIn(t.ctx, 'nobody-at-all@example.test')).toEqual([]);
  });

  it('refuses a link opened after 15 minutes', async () => {
    const staff = await newStaff();
    await requestLink(staff.email);
    const token = await linkTokenFor(staff.email);
    t.ctx.now = () => new Date(Date.now() + 15 * 60_000 + 1000);
    const late = await verify({ token });
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ code: 'LINK_EXPIRED' });
  });

  it('still accepts a link at 14 minutes', async () => {
    const staff = await newStaff();
    await requestLink(staff.email);
    const token = await linkTokenFor(staff.email);
    t.ctx.now = () => new Date(Date.now() + 14 * 60_000);
    expect((await verify({ token })).statusCode).toBe(200);
  });

  it('refuses a link for another address, and one whose account changed address; the right person can still use it', async () => {
    const a = await newStaff();
    const b = await newStaff();
    await requestLink(a.email);
    const token = await linkTokenFor(a.email);
    const other = await verify({ token, email: b.email });
    expect(other.statusCode).toBe(401);
    expect(other.json()).toMatchObject({ code: 'LINK_OTHER_ADDRESS' });
    expect((await verify({ token, email: a.email.toUpperCase() })).statusCode).toBe(200);

    const c = await newStaff();
    await requestLink(c.email);
    const cToken = await linkTokenFor(c.email);
    await t.db.query('UPDATE users SET email = $2 WHERE id = $1', [c.uid, `moved-${c.email}`]);
    expect((await verify({ token: cToken })).json()).toMatchObject({ code: 'LINK_OTHER_ADDRESS' });
  });

  it('refuses an unknown token, and never stores a token as it was sent', async () => {
    const unknown = await verify({ token: 'x'.repeat(43) });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: 'LINK_UNKNOWN' });

    const staff = await newStaff();
    await requestLink(staff.email);
    const token = await linkTokenFor(staff.email);
    const rows = await t.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM sign_in_codes WHERE user_id = $1',
      [staff.uid],
    );
    expect(rows.map((r) => r.code_hash)).toEqual([
      createHash('sha256').update(token).digest('hex'),
    ]);
  });

  it('writes the mail in the account’s language, or the one the login page asks for', async () => {
    const english = await newStaff({ locale: 'en' });
    await requestLink(english.email);
    expect((await mailsIn(t.ctx, english.email))[0]).toMatchObject({
      subject: '[Wearable Console] Your sign-in link',
      language: 'en',
    });
    const japanese = await newStaff({ locale: 'en' });
    await requestLink(japanese.email, { locale: 'ja' });
    expect((await mailsIn(t.ctx, japanese.email))[0]?.language).toBe('ja');
  });

  it('limits links per typed address (known or not) with the same 429', async () => {
    const staff = await newStaff();
    for (let i = 0; i < 5; i++) expect((await requestLink(staff.email)).statusCode).toBe(202);
    const sixth = await requestLink(staff.email);
    for (let i = 0; i < 5; i++) await requestLink('ghost-link@example.test');
    const ghost = await requestLink('ghost-link@example.test');
    expect(sixth.statusCode).toBe(429);
    expect(ghost.json()).toEqual(sixth.json());
    expect(await mailsIn(t.ctx, staff.email)).toHaveLength(5);
  });

  it('limits requests per client address', async () => {
    const from = { remoteAddress: '10.9.9.9' };
    const ask = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/v2/auth/emailLink',
        payload: { email: `spray-${i}@example.test` },
        ...from,
      });
    for (let i = 0; i < 20; i++) expect((await ask(i)).statusCode).toBe(202);
    expect((await ask(20)).statusCode).toBe(429);
  });
});

describe('bad input', () => {
  it.each([
    ['/v2/auth/emailLink', {}, 'body.email'],
    ['/v2/auth/emailLink', { email: 'not-an-address' }, 'body.email'],
    ['/v2/auth/emailLink', { email: 'a@example.test', locale: 'fr' }, 'body.locale'],
    ['/v2/auth/emailLink/verify', {}, 'body.token'],
    ['/v2/auth/emailLink/verify', { token: 'has spaces and is long enough' }, 'body.token'],
    ['/v2/auth/emailLink/verify', { token: 'y'.repeat(129) }, 'body.token'],
    ['/v2/auth/emailLink/verify', { token: 'y'.repeat(43), email: 'nope' }, 'body.email'],
  ])('%s %j is a 400 naming %s', async (url, payload, field) => {
    const res = await t.app.inject({ method: 'POST', url, payload, remoteAddress: '10.8.0.1' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: Array<{ path: string }> }>().issues.map((i) => i.path)).toContain(
      field,
    );
  });
});

describe('SIGN_IN_METHODS', () => {
  it('lists the offered methods; a method turned off answers 403', async () => {
    const methods = await t.app.inject({ url: '/v2/auth/methods' });
    expect(methods.json()).toEqual({ methods: ['password', 'emailLink', 'phone'], oidc: null });
    const only = await createTestApp({ signInMethods: ['password'] });
    try {
      expect((await only.app.inject({ url: '/v2/auth/methods' })).json()).toEqual({
        methods: ['password'],
        oidc: null,
      });
      const off = await only.app.inject({
        method: 'POST',
        url: '/v2/auth/emailLink',
        payload: { email: 'a@example.test' },
      });
      expect(off.statusCode).toBe(403);
      expect(off.json()).toMatchObject({ code: 'METHOD_DISABLED' });
    } finally {
      await only.close();
    }
  });
});
