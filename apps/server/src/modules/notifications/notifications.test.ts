import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE, smsLength, WEEKDAYS } from '@wearable/domain';
import { buildWorld, type World } from '../../testing/world.js';
import { createWearer, type WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { embeddedProvider } from './notification-provider.js';
import { notificationsService } from './notifications.service.js';
import { TWILIO_STATUS_PATH } from './twilio-callbacks.routes.js';
import { twilioSignature } from './twilio-signature.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  await t.db.query("UPDATE users SET phone_number = '+819011110000' WHERE id = $1", [
    w.users.ORGANIZATION_OWNER.uid,
  ]);
});
afterAll(() => t.close());

const NEVER = Object.fromEntries(
  WEEKDAYS.map((d) => [d, { enabled: false, startTime: '00:00', endTime: '23:59' }]),
);

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An SOS through the real gateway endpoint; resolves to the alert the engine opened. */
async function sos(app: TestApp, wearer: WearerRecord): Promise<string> {
  const res = await app.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${wearer.gateway.id}:${wearer.gateway.credential}` },
    payload: {
      events: [
        { serialNumber: wearer.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
      ],
    },
  });
  expect(res.json()).toMatchObject({ accepted: 1 });
  return until(
    async () =>
      (
        await app.db.query<{ id: string }>(
          "SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'",
          [wearer.uid],
        )
      )[0]?.id,
  );
}

const attempts = (db: TestApp['db'], alertId: string) =>
  db.query<{
    step: number;
    channel: string;
    recipient: string;
    status: string;
    provider: string;
    text: string;
    error: string | null;
    provider_id: string | null;
  }>(
    'SELECT step, channel, recipient, status, provider, text, error, provider_id FROM notifications WHERE alert_id = $1 ORDER BY created_at, recipient',
    [alertId],
  );

// The escalation row is written after the first step's sends settle (the provider may be slow: files, HTTP).
const escalationStarted = (alertId: string) =>
  until(async () =>
    (await t.db.query('SELECT 1 FROM notification_escalations WHERE alert_id = $1', [alertId]))
      .length
      ? true
      : undefined,
  );

async function setRecipients(app: TestApp, groupId: string, recipients: object[]) {
  const res = await app.app.inject({
    method: 'PUT',
    url: `/v2/group/${groupId}/alertNoticeSettings`,
    headers: w.users.ALL_OWNER.headers,
    payload: { recipients },
  });
  expect(res.statusCode).toBe(200);
}

describe('notifications on alert.opened', () => {
  it('sends the first step to the recipients of that type whose schedule covers now, and logs it', async () => {
    await setRecipients(t, w.g1, [
      {
        userId: w.users.ORGANIZATION_OWNER.uid,
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 1,
      },
      {
        phoneNumber: '+819022220000',
        channel: 'PHONE_CALL',
        alertTypes: ['HEART_RATE'],
        schedule: DEFAULT_SCHEDULE,
        order: 1,
      },
      {
        phoneNumber: '+819033330000',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: NEVER,
        order: 1,
      },
      {
        phoneNumber: '+819044440000',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 2,
      },
    ]);
    const alertId = await sos(t, w.w1);
    // An attempt is logged 'queued' first, then updated with the provider's outcome.
    const sent = await until(async () => {
      const rows = await attempts(t.db, alertId);
      return rows.length > 0 && rows.every((r) => r.status !== 'queued') ? rows : undefined;
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      step: 1,
      channel: 'SMS',
      recipient: '+819011110000',
      status: 'delivered',
      provider: 'embedded',
    });
    // The embedded provider delivers at once: sent and delivered when it answered, never failed.
    const [times] = await t.db.query<{
      sent_at: Date | null;
      delivered_at: Date | null;
      failed_at: Date | null;
    }>('SELECT sent_at, delivered_at, failed_at FROM notifications WHERE alert_id = $1', [alertId]);
    expect(times?.sent_at).toBeTruthy();
    expect(times?.delivered_at).toEqual(times?.sent_at);
    expect(times?.failed_at).toBeNull();
    // Where (issue 17): the gateway that relayed the SOS. Issue 36 item 4: one UCS-2 segment (70
    // characters), compact (no group, "SOS") with the name cut to fit, ending with the short link;
    // it used to be the full text and the wearer's console path, 2 segments.
    expect(sent[0]?.text).toMatch(
      new RegExp(`^【緊急】山田 太…さん SOS \\d\\d:\\d\\d Gateway .{8} http\\S+/a/[0-9A-Za-z]{7}$`),
    );
    expect(smsLength(sent[0]!.text).segments).toBe(1);

    const log = await t.app.inject({
      url: `/v2/notifications?alertId=${alertId}`,
      headers: w.users.ORGANIZATION_GENERAL.headers,
    });
    expect(log.json().notifications).toMatchObject([
      { alertId, channel: 'SMS', status: 'delivered', provider: 'embedded', step: 1 },
    ]);
  });

  it('escalates an unconfirmed EMERGENCY step by step, then calls the SMS recipients, then stops', async () => {
    await setRecipients(t, w.g2, [
      {
        phoneNumber: '+819055550001',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 1,
      },
      {
        phoneNumber: '+819055550002',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 2,
      },
    ]);
    const alertId = await sos(t, w.w2);
    await escalationStarted(alertId);
    const after = t.ctx.config.escalationAfterSeconds * 1000;
    // A fresh service on the same database: what a restarted server's sweeper would do. Its clock runs
    // ahead, so it sweeps this organisation only: test files share a PostgreSQL database, and a global
    // sweep would escalate their alerts early, with its own clock's times (webhook-events.test.ts).
    const at = (ms: number) =>
      notificationsService({ ...t.ctx, now: () => new Date(Date.now() + ms) }, embeddedProvider);

    await at(0).sweep(w.orgA);
    expect(await attempts(t.db, alertId)).toHaveLength(1);

    await at(after + 1000).sweep(w.orgA);
    expect((await attempts(t.db, alertId)).map((a) => [a.step, a.channel, a.recipient])).toEqual([
      [1, 'SMS', '+819055550001'],
      [2, 'SMS', '+819055550002'],
    ]);
    expect((await attempts(t.db, alertId))[1]?.text).toContain('【緊急・未確認】');

    await at(2 * after + 2000).sweep(w.orgA);
    expect(
      (await attempts(t.db, alertId)).slice(2).map((a) => [a.step, a.channel, a.recipient]),
    ).toEqual([[3, 'PHONE_CALL', '+819055550002']]);

    await at(3 * after + 3000).sweep(w.orgA);
    expect(await attempts(t.db, alertId)).toHaveLength(3);
    const [esc] = await t.db.query<{ done_reason: string }>(
      'SELECT done_reason FROM notification_escalations WHERE alert_id = $1',
      [alertId],
    );
    expect(esc?.done_reason).toBe('exhausted');
  });

  it('confirming stops the escalation', async () => {
    const wearer = await createWearer(t, { organizationId: w.orgA, groupId: w.g2 });
    const alertId = await sos(t, wearer);
    await escalationStarted(alertId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: { alertId },
    });
    expect(res.json()).toEqual({ alertId, result: 'confirmed' });
    const later = {
      ...t.ctx,
      now: () => new Date(Date.now() + 10 * t.ctx.config.escalationAfterSeconds * 1000),
    };
    // This organisation only (the clock runs ahead; see above).
    await notificationsService(later, embeddedProvider).sweep(w.orgA);
    expect(await attempts(t.db, alertId)).toHaveLength(1);
    const [esc] = await t.db.query<{ done_reason: string }>(
      'SELECT done_reason FROM notification_escalations WHERE alert_id = $1',
      [alertId],
    );
    expect(esc?.done_reason).toBe('confirmed');
  });
});

describe('Twilio adapter against a local server that answers as Twilio does', () => {
  let fake: Server;
  let base: string;
  const seen: { path: string; auth: string | undefined; form: URLSearchParams }[] = [];
  let tw: TestApp;
  let tw1: WearerRecord;

  beforeAll(async () => {
    fake = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        seen.push({ path: req.url ?? '', auth: req.headers.authorization, form });
        res.setHeader('content-type', 'application/json');
        if (form.get('To') === '+15005550001') {
          res.statusCode = 400;
          return res.end(
            JSON.stringify({
              code: 21211,
              message: "The 'To' number +15005550001 is not a valid phone number.",
              status: 400,
            }),
          );
        }
        res.statusCode = 201;
        const sid = `${req.url?.includes('Calls') ? 'CA' : 'SM'}${seen.length.toString().padStart(32, '0')}`;
        res.end(JSON.stringify({ sid, status: 'queued' }));
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    tw = await createTestApp({
      twilio: {
        accountSid: 'AC123',
        authToken: 'secret',
        from: '+15005550006',
        apiBase: base,
        statusCallbackUrl: 'https://console.example/v2/notifications/twilio/status',
      },
    });
    w = await buildWorld(tw);
    tw1 = w.w1;
  });
  afterAll(async () => {
    await tw.close();
    await new Promise((r) => fake.close(r));
  });

  it('sends SMS and calls through the REST API; a 400 is logged as failed with its code', async () => {
    await setRecipients(tw, w.g1, [
      {
        phoneNumber: '+819066660000',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 1,
      },
      {
        phoneNumber: '+819077770000',
        channel: 'PHONE_CALL',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 1,
      },
      {
        phoneNumber: '+15005550001',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 1,
      },
    ]);
    const alertId = await sos(tw, tw1);
    const rows = await until(async () => {
      const r = await attempts(tw.db, alertId);
      return r.length === 3 && r.every((x) => x.status !== 'sent' && (x.provider_id || x.error))
        ? r
        : undefined;
    });
    const by = (to: string) => rows.find((r) => r.recipient === to);
    expect(by('+819066660000')).toMatchObject({
      provider: 'twilio',
      status: 'queued',
      error: null,
    });
    expect(by('+819066660000')?.provider_id).toMatch(/^SM/);
    expect(by('+819077770000')?.provider_id).toMatch(/^CA/);
    expect(by('+15005550001')).toMatchObject({ status: 'failed', provider_id: null });
    expect(by('+15005550001')?.error).toContain('21211');

    const sms = seen.find((s) => s.form.get('To') === '+819066660000');
    expect(sms?.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(sms?.auth).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
    expect(sms?.form.get('From')).toBe('+15005550006');
    expect(sms?.form.get('Body')).toMatch(/^【緊急】.* SOS /);
    expect(sms?.form.get('StatusCallback')).toBe(
      'https://console.example/v2/notifications/twilio/status',
    );
    const call = seen.find((s) => s.form.get('To') === '+819077770000');
    expect(call?.path).toBe('/2010-04-01/Accounts/AC123/Calls.json');
    expect(call?.form.get('Twiml')).toMatch(
      /^<Response><Say language="ja-JP">【緊急】.*SOS発信.*<\/Say><\/Response>$/,
    );
  });

  /** Posts a status callback as Twilio does: form-encoded, signed with `token` unless told otherwise. */
  const callback = (
    form: Record<string, string>,
    signature: string | null = twilioSignature(
      'secret',
      `${tw.ctx.config.publicUrl}${TWILIO_STATUS_PATH}`,
      form,
    ),
  ) =>
    tw.app.inject({
      method: 'POST',
      url: TWILIO_STATUS_PATH,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature === null ? {} : { 'x-twilio-signature': signature }),
      },
      payload: new URLSearchParams(form).toString(),
    });
  const row = (sid: string) =>
    tw.db
      .query<{
        id: string;
        status: string;
        provider_status: string | null;
        sent_at: Date | null;
        delivered_at: Date | null;
        failed_at: Date | null;
        error: string | null;
      }>(
        'SELECT id, status, provider_status, sent_at, delivered_at, failed_at, error FROM notifications WHERE provider_id = $1',
        [sid],
      )
      .then((r) => r[0]);
  const events = (id: string) =>
    tw.db.query<{ status: string; provider_status: string }>(
      'SELECT status, provider_status FROM notification_events WHERE notification_id = $1 ORDER BY id',
      [id],
    );

  it('status callbacks signed by Twilio record delivery, failure and never move an attempt back; forged or unsigned ones get 403 and record nothing', async () => {
    const [sms] = await tw.db.query<{ provider_id: string; id: string }>(
      "SELECT id, provider_id FROM notifications WHERE recipient = '+819066660000' AND provider_id IS NOT NULL",
    );
    const [call] = await tw.db.query<{ provider_id: string; id: string }>(
      "SELECT id, provider_id FROM notifications WHERE recipient = '+819077770000' AND provider_id IS NOT NULL",
    );
    if (!sms || !call) throw new Error('the first test sends the attempts');
    const delivered = {
      AccountSid: 'AC123',
      MessageSid: sms.provider_id,
      MessageStatus: 'delivered',
      To: '+819066660000',
    };

    // Forged: signed with another token; unsigned; signed for other parameters. 403, nothing recorded.
    const forged = await callback(
      delivered,
      twilioSignature(
        'not-the-token',
        `${tw.ctx.config.publicUrl}${TWILIO_STATUS_PATH}`,
        delivered,
      ),
    );
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    expect((await callback(delivered, null)).statusCode).toBe(403);
    const signedForOther = twilioSignature(
      'secret',
      `${tw.ctx.config.publicUrl}${TWILIO_STATUS_PATH}`,
      { ...delivered, MessageStatus: 'sent' },
    );
    expect((await callback(delivered, signedForOther)).statusCode).toBe(403);
    expect(await row(sms.provider_id)).toMatchObject({
      status: 'queued',
      delivered_at: null,
      provider_status: null,
    });
    expect(await events(sms.id)).toEqual([]);

    // Valid: delivered (sent_at too), then a late 'sent' that arrives out of order changes nothing but the log.
    const ok = await callback(delivered);
    expect(ok.statusCode).toBe(204);
    const afterDelivery = await row(sms.provider_id);
    expect(afterDelivery).toMatchObject({
      status: 'delivered',
      provider_status: 'delivered',
      failed_at: null,
    });
    expect(afterDelivery?.delivered_at).toBeTruthy();
    expect(afterDelivery?.sent_at).toEqual(afterDelivery?.delivered_at);
    expect((await callback({ ...delivered, MessageStatus: 'sent' })).statusCode).toBe(204);
    expect(await row(sms.provider_id)).toMatchObject({
      status: 'delivered',
      delivered_at: afterDelivery?.delivered_at,
    });
    expect((await events(sms.id)).map((e) => [e.status, e.provider_status])).toEqual([
      ['delivered', 'delivered'],
      ['sent', 'sent'],
    ]);

    // A call nobody answered: failed, with Twilio's word kept.
    expect(
      (await callback({ AccountSid: 'AC123', CallSid: call.provider_id, CallStatus: 'no-answer' }))
        .statusCode,
    ).toBe(204);
    expect(await row(call.provider_id)).toMatchObject({
      status: 'failed',
      provider_status: 'no-answer',
      delivered_at: null,
    });
    expect((await row(call.provider_id))?.failed_at).toBeTruthy();

    // A sid we never sent: accepted (Twilio need not retry), nothing recorded.
    expect(
      (await callback({ AccountSid: 'AC123', MessageSid: 'SMunknown', MessageStatus: 'delivered' }))
        .statusCode,
    ).toBe(204);
  });
});

describe('Twilio status callbacks without Twilio configured', () => {
  it('are refused: there is no token to verify them with', async () => {
    const form = { MessageSid: 'SM1', MessageStatus: 'delivered' };
    const res = await t.app.inject({
      method: 'POST',
      url: TWILIO_STATUS_PATH,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(
          'secret',
          `${t.ctx.config.publicUrl}${TWILIO_STATUS_PATH}`,
          form,
        ),
      },
      payload: new URLSearchParams(form).toString(),
    });
    expect(res.statusCode).toBe(403);
  });
});
