import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TYPES, type ChannelHealthResponse, DEFAULT_SCHEDULE } from '@wearable/domain';
import { authService } from '../auth/auth.service.js';
import { mailsIn } from '../../testing/mail-outbox.js';
import {
  createGroup,
  createOrganization,
  createUser,
  type UserRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { type Receiver, startReceiver } from '../../testing/webhook-receiver.js';
import { compose, mailService } from '../mail/mail.service.js';
import { smtpTransport } from '../mail/mail-transport.js';
import { webhookWorker } from '../webhooks/webhooks.worker.js';
import { channelHealthService } from './channel-health.service.js';

/**
 * Issue 38 item 4 through the real app. SMS leave through the Twilio adapter to a local fake of
 * Twilio's Messages resource: it answers as the REST API documents (201 with the message's `sid`
 * and `status` "queued": https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource)
 * or, while told to fail, with Twilio's error body (`code`, `message`, `more_info`, `status`:
 * https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions; 20500 is
 * "Internal Server Error", https://www.twilio.com/docs/api/errors/20500). A webhook endpoint goes to
 * a local receiver that answers 500. The owners' mails are the app's .eml files (DATA_DIR/mail).
 * The clock is the app's injectable one, moved by hand (docs/testing.md).
 */

const OWNER_PHONE = '+819055550038';
const STAFF_PHONE = '+819055550039';
let t: TestApp;
let twilio: Server;
let twilioFails = false;
const twilioSeen: URLSearchParams[] = [];
let rx: Receiver;
let organizationId = '';
let groupId = '';
let owner: UserRecord;
let manager: UserRecord;
const t0 = Date.now() + 3 * 24 * 3_600_000;
let clock = t0;
const at = (minutes: number) => {
  clock = t0 + minutes * 60_000;
  return new Date(clock);
};

beforeAll(async () => {
  twilio = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      twilioSeen.push(new URLSearchParams(body));
      res.setHeader('content-type', 'application/json');
      if (twilioFails) {
        res.statusCode = 500;
        return res.end(
          JSON.stringify({
            code: 20500,
            message: 'Internal Server Error',
            more_info: 'https://www.twilio.com/docs/errors/20500',
            status: 500,
          }),
        );
      }
      res.statusCode = 201;
      res.end(
        JSON.stringify({
          sid: `SM${twilioSeen.length.toString().padStart(32, '0')}`,
          status: 'queued',
        }),
      );
    });
  });
  await new Promise<void>((r) => twilio.listen(0, '127.0.0.1', r));
  const base = (await import('../../config.js')).loadConfig({});
  t = await createTestApp({
    twilio: {
      accountSid: 'AC0038',
      authToken: 'secret',
      from: '+15005550006',
      apiBase: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`,
    },
    webhooks: { ...base.webhooks, allowPrivate: true, worker: false, retryBaseMs: 1000 },
  });
  rx = await startReceiver();
  const org = await createOrganization(t);
  organizationId = org.id;
  groupId = (await createGroup(t, { organizationId, name: '本館' })).id;
  owner = await createUser(t, {
    role: 'ORGANIZATION_OWNER',
    organizationId,
    name: '施設長',
    phoneNumber: OWNER_PHONE,
  });
  manager = await createUser(t, {
    role: 'ORGANIZATION_GROUP',
    organizationId,
    managedGroupIds: [groupId],
    phoneNumber: STAFF_PHONE,
  });
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${groupId}/alertNoticeSettings`,
    headers: owner.headers,
    payload: {
      recipients: [
        {
          userId: manager.uid,
          channel: 'SMS',
          alertTypes: [...ALERT_TYPES],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  // This app's own timers must not sweep other test files' organisations in a shared database.
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  t.ctx.now = () => new Date(clock);
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
  await new Promise((r) => twilio?.close(r));
});

/** A session started on the story's clock (its token's times follow the clock). */
async function headersOf(user: UserRecord) {
  const { accessToken } = await authService(t.ctx).startSession(user.uid);
  return { authorization: `Bearer ${accessToken}` };
}

async function health(user = owner, org = organizationId) {
  return t.app.inject({
    url: `/v2/organization/${org}/channelHealth`,
    headers: await headersOf(user),
  });
}
const channels = async () => {
  const res = await health();
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ChannelHealthResponse>().channels;
};

/** One SMS to the group manager through the real provider ("send a test" of the notice settings). */
async function sms() {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v2/group/${groupId}/alertNoticeSettings/test`,
    headers: await headersOf(owner),
    payload: { channel: 'SMS', userId: manager.uid },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ status: string }>().status;
}

const sweep = () => channelHealthService(t.ctx).sweep(organizationId);
const ownerMails = async () =>
  (await mailsIn(t.ctx, owner.email)).filter((m) => m.subject.includes('失敗しています'));
const ownerSms = () => twilioSeen.filter((f) => f.get('To') === OWNER_PHONE);

describe('a failing SMS provider is told to the owners by mail, once per failing run', () => {
  it('shows the last delivery, the failure and its reason; tells the owners after 10 minutes, once; again after a recovery and a new run', async () => {
    at(0);
    expect(await sms()).toBe('queued');
    let sms0 = (await channels()).find((c) => c.channel === 'SMS');
    expect(sms0).toMatchObject({
      lastDeliveredAt: new Date(t0).toISOString(),
      lastFailedAt: null,
      failing: false,
    });
    // Mail is always a channel (sign-in links, invitations); no call is set up or was made.
    expect((await channels()).map((c) => c.channel)).toEqual(['SMS', 'EMAIL']);

    twilioFails = true;
    at(1);
    expect(await sms()).toBe('failed');
    at(5);
    await sms();
    sms0 = (await channels()).find((c) => c.channel === 'SMS');
    expect(sms0).toMatchObject({
      lastDeliveredAt: new Date(t0).toISOString(),
      lastFailedAt: at(5).toISOString(),
      lastFailureReason: 'HTTP 500 20500: Internal Server Error',
      failingSince: new Date(t0 + 60_000).toISOString(),
      failing: false,
      noticedAt: null,
    });

    // Nine minutes of failure: not yet.
    at(10);
    expect((await sweep()).opened).toEqual([]);
    expect(await ownerMails()).toHaveLength(0);

    // Ten minutes: one mail to the owner (SMS is the failing channel, so not by SMS).
    // Two sweeps at once (a leader change mid-sweep, two servers): one run, one notice.
    at(11);
    const [first, twin] = await Promise.all([sweep(), sweep()]);
    // (the other may find the run open and untold, and try to tell it: its claim fails.)
    expect(new Set([...first.opened, ...twin.opened]).size).toBe(1);
    if (first.opened.length === 0) first.opened.push(...twin.opened);
    let mails = await ownerMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('SMSが');
    expect(mails[0]!.text).toContain('HTTP 500 20500: Internal Server Error');
    expect(ownerSms()).toHaveLength(0);
    expect((await channels()).find((c) => c.channel === 'SMS')).toMatchObject({
      failing: true,
      noticedAt: at(11).toISOString(),
    });

    // A second sweep, and a third after more failures: nothing more.
    at(12);
    await sms();
    expect((await sweep()).opened).toEqual([]);
    at(20);
    expect((await sweep()).opened).toEqual([]);
    expect(await ownerMails()).toHaveLength(1);

    // The provider recovers: the next delivered SMS ends the run.
    twilioFails = false;
    at(21);
    expect(await sms()).toBe('queued');
    at(22);
    expect((await sweep()).closed).toEqual(first.opened);
    expect((await channels()).find((c) => c.channel === 'SMS')).toMatchObject({
      lastDeliveredAt: at(21).toISOString(),
      failingSince: null,
      failing: false,
      noticedAt: null,
    });

    // A new run of failures is told again, once.
    twilioFails = true;
    at(30);
    await sms();
    at(41);
    const second = await sweep();
    expect(second.opened).toHaveLength(1);
    expect(second.opened).not.toEqual(first.opened);
    expect((await sweep()).opened).toEqual([]);
    mails = await ownerMails();
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain(`${formatHm(at(30))}`);
    twilioFails = false;
    at(42);
    await sms();
    await sweep();
  });
});

/** HH:MM in Asia/Tokyo, the organisation's zone. */
function formatHm(d: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Tokyo',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);
}

describe('a webhook endpoint that answers 500', () => {
  it('is a channel of its own; failing for 10 minutes, the owners are told by mail and SMS, once', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/v2/organization/${organizationId}/webhooks`,
      headers: await headersOf(owner),
      payload: {
        url: rx.url('/hook/secret-path-token'),
        eventTypes: ['alert.opened'],
        description: '',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const webhookId = created.json<{ webhook: { id: string } }>().webhook.id;
    rx.answers.push(...Array<number>(20).fill(500));
    const worker = webhookWorker(t.ctx, { error: () => undefined });
    const test = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v2/webhook/${webhookId}/test`,
        headers: await headersOf(owner),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      await worker.drain();
    };
    at(100);
    await test();
    const hook = () =>
      channels().then((cs) => cs.find((c) => c.channel === 'WEBHOOK' && c.webhookId === webhookId));
    expect(await hook()).toMatchObject({
      // Its host only: the path may carry the receiver's token.
      label: new URL(rx.url()).host,
      lastDeliveredAt: null,
      lastFailedAt: at(100).toISOString(),
      lastFailureReason: 'HTTP 500',
      failingSince: at(100).toISOString(),
      failing: false,
    });
    expect(JSON.stringify(await channels())).not.toContain('secret-path-token');
    at(111);
    await test();
    const mailsBefore = (await ownerMails()).length;
    const smsBefore = ownerSms().length;
    const run = await sweep();
    expect(run.opened).toHaveLength(1);
    expect(await ownerMails()).toHaveLength(mailsBefore + 1);
    expect(ownerSms()).toHaveLength(smsBefore + 1);
    expect(ownerSms().at(-1)!.get('Body')).toContain('Webhook');
    expect(ownerSms().at(-1)!.get('Body')).not.toContain('secret-path-token');
    expect((await sweep()).opened).toEqual([]);
    expect(await ownerMails()).toHaveLength(mailsBefore + 1);
    expect(ownerSms()).toHaveLength(smsBefore + 1);
    expect((await hook())?.noticedAt).toBe(at(111).toISOString());
  });
});

describe('a mail server that refuses every message', () => {
  it('is told to the owners by SMS, not by mail', async () => {
    // An SMTP server that takes the envelope and refuses the message (RFC 5321 section 4.2.3: 554
    // "Transaction failed"), as a relay does once its account is blocked.
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData: (stream, _session, done) => {
        stream.resume();
        stream.on('end', () =>
          done(Object.assign(new Error('5.7.1 Relaying denied'), { responseCode: 554 })),
        );
      },
    });
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    const port = (refusing.server.address() as AddressInfo).port;
    const org = (await createOrganization(t)).id;
    const phone = '+819055550040';
    await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org, phoneNumber: phone });
    const saved = t.ctx.mail;
    t.ctx.mail = mailService(
      t.ctx.config,
      t.db,
      () => t.ctx.now(),
      smtpTransport(`smtp://127.0.0.1:${port}`),
    );
    try {
      at(200);
      const result = await t.ctx.mail.send(
        { email: 'staff@example.test', userId: null, organizationId: org },
        compose({
          locale: 'ja',
          publicUrl: t.ctx.config.publicUrl,
          subject: 'テスト',
          greeting: 'テスト',
          paragraphs: ['テスト'],
          action: { label: '開く', url: t.ctx.config.publicUrl },
          after: [],
          secrets: [],
        }),
      );
      expect(result.status).toBe('failed');
      at(211);
      const smsBefore = twilioSeen.filter((f) => f.get('To') === phone).length;
      const run = await channelHealthService(t.ctx).sweep(org);
      expect(run.opened).toHaveLength(1);
      const told = twilioSeen.filter((f) => f.get('To') === phone);
      expect(told).toHaveLength(smsBefore + 1);
      expect(told.at(-1)!.get('Body')).toContain('メールが');
      expect(told.at(-1)!.get('Body')).toContain('554');
      // Not by mail: the only mail of this organisation is the refused one.
      const mails = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notifications WHERE organization_id = $1 AND channel = 'EMAIL'`,
        [org],
      );
      expect(mails[0]!.n).toBe(1);
    } finally {
      await t.ctx.mail.close();
      t.ctx.mail = saved;
      await new Promise<void>((r) => refusing.close(() => r()));
    }
  });
});

describe('GET channelHealth: role table and another organisation', () => {
  it('owners, group managers and platform staff read it; general staff and personal users are refused; another organisation is 404', async () => {
    const other = await createOrganization(t);
    const cases: [UserRecord, number][] = [
      [owner, 200],
      [manager, 200],
      [await createUser(t, { role: 'ALL_OWNER' }), 200],
      [await createUser(t, { role: 'ALL_GENERAL' }), 200],
      [await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId }), 403],
      [await createUser(t, { role: 'PERSONAL', organizationId }), 403],
      [await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: other.id }), 404],
    ];
    for (const [user, status] of cases) {
      expect((await health(user)).statusCode, user.role).toBe(status);
    }
    // The other organisation's owner reads their own, which shows nothing of this one's.
    const otherOwner = cases.at(-1)![0];
    const theirs = await health(otherOwner, other.id);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json<ChannelHealthResponse>().channels).toEqual([
      expect.objectContaining({ channel: 'EMAIL', lastDeliveredAt: null, lastFailedAt: null }),
    ]);
    expect((await health(owner, 'org-nope')).statusCode).toBe(404);
  });
});

describe('a notice that never reached the provider', () => {
  it('(a staff member without a number, nobody on call) is not a failing channel', async () => {
    const org = (await createOrganization(t)).id;
    const orgOwner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org });
    for (const error of ['the recipient has no phone number', 'nobody is on call'])
      await t.db.query(
        `INSERT INTO notifications (id, organization_id, alert_id, step, channel, recipient, provider, status,
                                    error, text, created_at, updated_at)
         VALUES ($1, $2, NULL, 1, 'SMS', NULL, 'embedded', 'failed', $3, 'x', $4, $4)`,
        [`n-${randomUUID()}`, org, error, new Date(clock - 20 * 60_000)],
      );
    const res = await health(orgOwner, org);
    expect(res.statusCode, res.body).toBe(200);
    const sms = res.json<ChannelHealthResponse>().channels.find((c) => c.channel === 'SMS');
    expect(sms?.failing ?? false).toBe(false);
    expect(sms?.lastFailedAt ?? null).toBeNull();
  });
});
