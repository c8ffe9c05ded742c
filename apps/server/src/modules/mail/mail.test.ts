import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser } from '../../testing/factories.js';
import { mailsIn } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { ACTOR_NAMES, type ActorName, buildWorld } from '../../testing/world.js';
import { signInLinkMail } from './mail-templates.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'http://console.example.test:8080' });
});
afterAll(() => t.close());

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const linkMail = (locale: 'ja' | 'en') =>
  signInLinkMail({
    locale,
    publicUrl: t.ctx.config.publicUrl,
    name: '佐藤 花子',
    token: TOKEN,
    minutes: 15,
  });

describe('mail without SMTP_URL', () => {
  it('writes an .eml file a person can open, with text, HTML, the product name and a working link', async () => {
    const org = await createOrganization(t);
    const user = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id });
    const result = await t.ctx.mail.send(
      { email: user.email, userId: user.uid, organizationId: org.id },
      linkMail('ja'),
    );
    expect(result.status).toBe('sent');
    const [mail] = await mailsIn(t.ctx, user.email);
    expect(mail).toMatchObject({
      subject: '[ウェアラブル見守りコンソール] ログイン用リンク',
      language: 'ja',
    });
    expect(mail?.file).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z_.+\.eml$/);
    expect(mail?.text).toContain('佐藤 花子 様');
    expect(mail?.links).toContain(`http://console.example.test:8080/verify#signin=${TOKEN}`);
    expect(mail?.html).toContain(`href="http://console.example.test:8080/verify#signin=${TOKEN}"`);
    expect(mail?.html).toContain('<html lang="ja">');
  });

  it('records the mail in the notification log, token redacted, for its addressee only', async () => {
    const org = await createOrganization(t);
    const user = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id });
    const owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
    await t.ctx.mail.send(
      { email: user.email, userId: user.uid, organizationId: org.id },
      linkMail('en'),
    );
    await t.ctx.mail.idle();
    const own = await t.app.inject({ url: '/v2/notifications', headers: user.headers });
    expect(own.statusCode).toBe(200);
    const [entry] = own.json<{ notifications: Array<Record<string, unknown>> }>().notifications;
    expect(entry).toMatchObject({
      channel: 'EMAIL',
      alertId: null,
      step: 0,
      recipient: user.email,
      provider: 'file',
      status: 'sent',
    });
    expect(entry?.text).toContain('[Wearable Console] Your sign-in link');
    expect(entry?.text).toContain('/verify#signin=[redacted]');
    expect(JSON.stringify(own.json())).not.toContain(TOKEN);
    const others = await t.app.inject({ url: '/v2/notifications', headers: owner.headers });
    expect(JSON.stringify(others.json())).not.toContain(user.email);
  });

  it('shows a mail to nobody but its addressee, whatever their role (the role table)', async () => {
    const w = await buildWorld(t);
    const addressee = w.users.ORGANIZATION_GENERAL;
    await t.ctx.mail.send(
      { email: addressee.email, userId: addressee.uid, organizationId: w.orgA },
      linkMail('ja'),
    );
    await t.ctx.mail.idle();
    const mailsSeen = async (name: ActorName) => {
      const res = await t.app.inject({ url: '/v2/notifications', headers: w.users[name].headers });
      if (res.statusCode !== 200) return res.statusCode;
      const rows = res.json<{ notifications: Array<{ recipient: string }> }>().notifications;
      return rows.filter((n) => n.recipient === addressee.email).length;
    };
    const table = Object.fromEntries(
      await Promise.all(ACTOR_NAMES.map(async (name) => [name, await mailsSeen(name)] as const)),
    );
    expect(table).toEqual({
      ALL_OWNER: 0,
      ALL_GENERAL: 0,
      ORGANIZATION_OWNER: 0,
      ORGANIZATION_GENERAL: 1,
      ORGANIZATION_GROUP: 0,
      GROUP_MANAGER_OTHER_GROUP: 0,
      OTHER_ORG_OWNER: 0,
      // The log is for staff (it shows phone numbers).
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    });
  });
});
