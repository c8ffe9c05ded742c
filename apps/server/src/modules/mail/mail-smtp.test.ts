import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser } from '../../testing/factories.js';
import { mailsIn, parseMail, type ReceivedMail } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signInLinkMail } from './mail-templates.js';
import { mailService } from './mail.service.js';

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

describe('mail through SMTP_URL', () => {
  let server: SMTPServer;
  const received: Array<{ from: string; to: string[]; mail: ReceivedMail }> = [];
  let port = 0;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth: (auth, _session, done) =>
        auth.username === 'mailer' && auth.password === 's3cret'
          ? done(null, { user: 'mailer' })
          : done(new Error('bad login')),
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          void parseMail(Buffer.concat(chunks)).then((mail) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              mail,
            });
            done();
          });
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const smtpMailer = (url: string) =>
    mailService(
      { ...t.ctx.config, smtpUrl: url, mailFrom: 'console@example.test' },
      t.db,
      () => new Date(),
    );

  it.each([
    ['ja', '[ウェアラブル見守りコンソール] ログイン用リンク', 'ログインする'],
    ['en', '[Wearable Console] Your sign-in link', 'Sign in'],
  ] as const)(
    'delivers a %s mail to the SMTP server, authenticated',
    async (locale, subject, button) => {
      const mailer = smtpMailer(`smtp://mailer:s3cret@127.0.0.1:${port}`);
      const to = `smtp-${locale}@example.test`;
      const result = await mailer.send(
        { email: to, userId: null, organizationId: null },
        linkMail(locale),
      );
      await mailer.close();
      expect(result.status).toBe('sent');
      const got = received.find((r) => r.to.includes(to));
      expect(got).toMatchObject({
        from: 'console@example.test',
        mail: { subject, language: locale },
      });
      expect(got?.mail.html).toContain(button);
      expect(got?.mail.links).toContain(`http://console.example.test:8080/verify#signin=${TOKEN}`);
      expect(await mailsIn(t.ctx, to)).toEqual([]);
    },
  );

  it('carries an email-link sign-in through the real app and SMTP: the English mail’s link signs in', async () => {
    const viaSmtp = await createTestApp({
      smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${port}`,
      publicUrl: 'https://console.example.test',
    });
    try {
      const org = await createOrganization(viaSmtp);
      const user = await createUser(viaSmtp, {
        role: 'ORGANIZATION_OWNER',
        organizationId: org.id,
        locale: 'en',
      });
      const asked = await viaSmtp.app.inject({
        method: 'POST',
        url: '/v2/auth/emailLink',
        payload: { email: user.email },
      });
      expect(asked.statusCode).toBe(202);
      await viaSmtp.ctx.mail.idle();
      const got = received.find((r) => r.to.includes(user.email));
      expect(got?.mail.subject).toBe('[Wearable Console] Your sign-in link');
      const link = got?.mail.links.find((l) =>
        l.startsWith('https://console.example.test/verify#signin='),
      );
      const token = new URL(link ?? 'https://x').hash.slice('#signin='.length);
      const res = await viaSmtp.app.inject({
        method: 'POST',
        url: '/v2/auth/emailLink/verify',
        payload: { token },
      });
      expect(res.statusCode).toBe(200);
      expect(await mailsIn(viaSmtp.ctx, user.email)).toEqual([]);
    } finally {
      await viaSmtp.close();
    }
  });

  it('answers a link request before a slow SMTP server has taken the mail (no timing tells an account exists)', async () => {
    const slow = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // A mail server that takes 5 s to greet.
      onConnect: (_session, done) => void setTimeout(() => done(), 5000),
      onData: (stream, _session, done) => {
        stream.resume();
        stream.on('end', () => done());
      },
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowPort = (slow.server.address() as AddressInfo).port;
    const viaSlow = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${slowPort}` });
    try {
      const org = await createOrganization(viaSlow);
      const user = await createUser(viaSlow, {
        role: 'ORGANIZATION_OWNER',
        organizationId: org.id,
      });
      const started = Date.now();
      const asked = await viaSlow.app.inject({
        method: 'POST',
        url: '/v2/auth/emailLink',
        payload: { email: user.email },
      });
      expect(asked.statusCode).toBe(202);
      expect(Date.now() - started).toBeLessThan(4000);
      await viaSlow.ctx.mail.idle();
      const [row] = await viaSlow.db.query<{ status: string }>(
        'SELECT status FROM notifications WHERE user_id = $1',
        [user.uid],
      );
      expect(row?.status).toBe('sent');
    } finally {
      await viaSlow.close();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it('records a failed delivery (wrong password) in the log, without the token', async () => {
    const mailer = smtpMailer(`smtp://mailer:wrong@127.0.0.1:${port}`);
    const result = await mailer.send(
      { email: 'refused@example.test', userId: null, organizationId: null },
      linkMail('ja'),
    );
    await mailer.close();
    expect(result.status).toBe('failed');
    const [row] = await t.db.query<{
      status: string;
      error: string;
      text: string;
      provider: string;
    }>(
      "SELECT status, error, text, provider FROM notifications WHERE recipient = 'refused@example.test'",
    );
    expect(row).toMatchObject({ status: 'failed', provider: 'smtp' });
    expect(row?.error).toMatch(/auth|login|535/i);
    expect(row?.text).not.toContain(TOKEN);
  });
});
