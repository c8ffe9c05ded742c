import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TokenPair } from '@wearable/domain';
import { mailsIn } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { type ActorName, buildWorld, type World } from '../../testing/world.js';

let t: TestApp;
let w: World;
const realNow = () => new Date();
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'http://console.example.test' });
  w = await buildWorld(t);
});
afterEach(() => {
  t.ctx.now = realNow;
});
afterAll(() => t.close());

let n = 0;
const address = (label: string) => `${label}-${++n}@invitee.example.test`;
const invite = (who: ActorName, payload: object) =>
  t.app.inject({ method: 'POST', url: '/v2/user/invite', headers: w.users[who].headers, payload });
const inspect = (token: string) =>
  t.app.inject({ method: 'POST', url: '/v2/user/invitation/inspect', payload: { token } });
const register = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/v2/user/register', payload });
const as = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
const registration = (token: string, email: string, extra: object = {}) => ({
  token,
  email,
  name: '佐藤 花子',
  password: 'a-long-password-2026',
  agreedToTerms: true,
  ...extra,
});

/** The token of the newest invitation mailed to the address, read from its .eml file as a person would. */
async function inviteTokenFor(email: string): Promise<string> {
  const link = (await mailsIn(t.ctx, email)).at(-1)?.links.find((l) => l.includes('/verify#'));
  expect(link).toMatch(/^http:\/\/console\.example\.test\/verify#invite=[\w-]{43}$/);
  return new URL(link ?? '').hash.slice('#invite='.length);
}

const summaryUids = async (accessToken: string) => {
  const res = await t.app.inject({ url: '/v3/device/summary', headers: as(accessToken) });
  expect(res.statusCode).toBe(200);
  return res.json<{ wearers: { uid: string }[] }>().wearers.map((x) => x.uid);
};

describe('an invitation, as people live it', () => {
  it('an owner invites a group manager; the mail holds the link; the invitee registers, signs in and sees only her group', async () => {
    const email = address('manager');
    const sent = await invite('ORGANIZATION_OWNER', {
      email,
      role: 'ORGANIZATION_GROUP',
      groupIds: [w.g1],
      locale: 'en',
      name: 'Hanako',
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ email, role: 'ORGANIZATION_GROUP', expired: false });
    expect(JSON.stringify(sent.json())).not.toMatch(/invite=/);

    const [mail] = await mailsIn(t.ctx, email);
    expect(mail?.language).toBe('en');
    expect(mail?.subject).toMatch(/invited you$/);
    expect(mail?.text).toContain('Hello Hanako,');
    const token = await inviteTokenFor(email);
    // Stored hashed: the token itself is nowhere in the database.
    const stored = await t.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM invitations WHERE email = $1',
      [email],
    );
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);

    const preview = await inspect(token);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      email,
      role: 'ORGANIZATION_GROUP',
      inviterName: w.users.ORGANIZATION_OWNER.name,
      // The registration page opens in the mail's language.
      locale: 'en',
    });
    expect(preview.json().organizationName).toEqual(expect.any(String));

    const registered = await register(registration(token, email));
    expect(registered.statusCode).toBe(200);
    const pair = registered.json<TokenPair>();
    expect(pair).toMatchObject({ tokenType: 'Bearer' });
    const me = await t.app.inject({ url: '/v2/user', headers: as(pair.accessToken) });
    expect(me.json()).toMatchObject({
      role: 'ORGANIZATION_GROUP',
      name: '佐藤 花子',
      mail: email,
      mailVerified: true,
      agreedTermsOfUse: true,
    });
    expect(await summaryUids(pair.accessToken)).toEqual([w.w1.uid]);

    // And later with her password, as any staff member.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/signIn',
      payload: { email, password: 'a-long-password-2026' },
    });
    expect(signIn.statusCode).toBe(200);
    expect(await summaryUids(signIn.json<TokenPair>().accessToken)).toEqual([w.w1.uid]);

    const list = await t.app.inject({
      url: `/v2/user/organization/members?q=${encodeURIComponent(email)}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(list.json()).toMatchObject({ total: 1, invitations: [] });
    expect(list.json().members[0]).toMatchObject({
      mail: email,
      role: 'ORGANIZATION_GROUP',
      groups: [{ id: w.g1 }],
    });
  });

  it('a family invitation links a personal user to that one wearer', async () => {
    const email = address('family');
    expect(
      (await invite('ORGANIZATION_GENERAL', { email, role: 'PERSONAL', wearerId: w.w2.uid }))
        .statusCode,
    ).toBe(201);
    const token = await inviteTokenFor(email);
    expect((await inspect(token)).json()).toMatchObject({
      role: 'PERSONAL',
      wearerName: w.w2.name,
    });
    const pair = (await register(registration(token, email))).json<TokenPair>();
    const me = await t.app.inject({ url: '/v2/user', headers: as(pair.accessToken) });
    expect(me.json()).toMatchObject({
      role: 'PERSONAL',
      linkedUids: [w.w2.uid],
      mediromOrganizationId: null,
    });
    expect(await summaryUids(pair.accessToken)).toEqual([w.w2.uid]);
  });

  it('a platform owner invites platform staff, who then see every organisation', async () => {
    const email = address('platform');
    expect((await invite('ALL_OWNER', { email, role: 'ALL_GENERAL' })).statusCode).toBe(201);
    const pair = (
      await register(registration(await inviteTokenFor(email), email))
    ).json<TokenPair>();
    const seen = await summaryUids(pair.accessToken);
    expect(seen).toEqual(expect.arrayContaining([w.w1.uid, w.w2.uid, w.wB.uid]));
  });
});

describe('links that cannot be used', () => {
  it('refuses a used link, on its own page', async () => {
    const email = address('twice');
    await invite('ORGANIZATION_OWNER', { email, role: 'ORGANIZATION_GENERAL' });
    const token = await inviteTokenFor(email);
    expect((await register(registration(token, email))).statusCode).toBe(200);
    const again = await register(registration(token, email, { password: 'another-password-2026' }));
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'INVITATION_USED' });
    expect((await inspect(token)).json()).toMatchObject({ code: 'INVITATION_USED' });
  });

  it('refuses a link after 7 days', async () => {
    const email = address('late');
    await invite('ORGANIZATION_OWNER', { email, role: 'ORGANIZATION_GENERAL' });
    const token = await inviteTokenFor(email);
    t.ctx.now = () => new Date(Date.now() + 7 * 86_400_000 + 1_000);
    expect((await inspect(token)).json()).toMatchObject({
      statusCode: 410,
      code: 'INVITATION_EXPIRED',
    });
    const res = await register(registration(token, email));
    expect(res.json()).toMatchObject({ statusCode: 410, code: 'INVITATION_EXPIRED' });
    expect(await t.db.query('SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);
  });

  it('refuses a link used with another address, and the link still works for its own', async () => {
    const email = address('own');
    await invite('ORGANIZATION_OWNER', { email, role: 'ORGANIZATION_GENERAL' });
    const token = await inviteTokenFor(email);
    const other = await register(registration(token, address('someone-else')));
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'INVITATION_OTHER_ADDRESS' });
    expect((await register(registration(token, email))).statusCode).toBe(200);
  });

  it('refuses an unknown link', async () => {
    const res = await inspect('x'.repeat(43));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'INVITATION_UNKNOWN' });
    expect((await register(registration('y'.repeat(43), address('nobody')))).json()).toMatchObject({
      code: 'INVITATION_UNKNOWN',
    });
  });

  it('a new invitation to the same address, or a resend, replaces the old link', async () => {
    const email = address('again');
    await invite('ORGANIZATION_OWNER', { email, role: 'ORGANIZATION_GENERAL' });
    const first = await inviteTokenFor(email);
    const second = await invite('ORGANIZATION_OWNER', { email, role: 'ORGANIZATION_OWNER' });
    const secondToken = await inviteTokenFor(email);
    expect((await inspect(first)).json()).toMatchObject({ code: 'INVITATION_REPLACED' });
    expect((await inspect(secondToken)).json()).toMatchObject({ role: 'ORGANIZATION_OWNER' });

    const resent = await t.app.inject({
      method: 'POST',
      url: '/v2/user/invitation/resend',
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: { invitationId: second.json().id },
    });
    expect(resent.statusCode).toBe(201);
    const third = await inviteTokenFor(email);
    expect(third).not.toBe(secondToken);
    expect((await inspect(secondToken)).json()).toMatchObject({ code: 'INVITATION_REPLACED' });
    expect((await register(registration(third, email))).statusCode).toBe(200);
  });

  it('refuses an address that already has an account', async () => {
    const res = await invite('ORGANIZATION_OWNER', {
      email: w.users.ORGANIZATION_GENERAL.email,
      role: 'ORGANIZATION_GENERAL',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'EMAIL_TAKEN', issues: [{ path: 'body.email' }] });
  });
});
