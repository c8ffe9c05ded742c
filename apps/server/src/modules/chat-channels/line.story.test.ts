import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertWritesRepository } from '../alerts/alert-writes.repository.js';
import { notificationsService } from '../notifications/notifications.service.js';
import {
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { FAKE_LINE_TOKEN, type LineFake, startLineFake } from '../../testing/line-fake.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { loadConfig } from '../../config.js';
import { CHAT_REPLIES } from './chat-callbacks.service.js';
import { isLineSignatureValid, lineRetryKey, lineSignature } from './line.js';

/**
 * A family member told of a watched wearer's SOS on LINE, through the real app with only the LINE
 * Messaging API faked (testing/line-fake.ts follows LINE's reference: "Send push message", "Retry failed
 * API requests" with X-Line-Retry-Key, "Signature validation"): the owner sets the official account up,
 * the family member links their LINE user with a one-time code sent as a message, chooses LINE, gets the
 * SOS with 見ました, presses it (recorded on the notification, the alert stays unconfirmed for the staff),
 * and LINE's bad answers (401, 429 with Retry-After, 5xx, a timeout) lose nothing and send nothing twice.
 */

const CHANNEL_SECRET = 'line-channel-secret-abcdef012345';
const LINE_USER = 'U4af4980629a0b4d0c2b6e4c3e11b1e5d';
let t: TestApp;
let fake: LineFake;
let owner: UserRecord;
let nurse: UserRecord;
let other: UserRecord;
let family: UserRecord;
let wearer: WearerRecord;
let orgId = '';
let groupId = '';

beforeAll(async () => {
  fake = await startLineFake();
  const base = loadConfig({ LOG_LEVEL: 'silent', SIMULATOR: 'false' });
  t = await createTestApp({
    webhooks: { ...base.webhooks, worker: false, allowPrivate: true },
    chat: { ...base.chat, lineApiUrl: fake.apiUrl, timeoutMs: 300, retryBaseMs: 10 },
  });
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  const org = await createOrganization(t);
  orgId = org.id;
  const group = await createGroup(t, { organizationId: org.id, name: '1階' });
  groupId = group.id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  nurse = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id });
  const otherOrg = await createOrganization(t);
  other = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: otherOrg.id });
  const gateway = await createGateway(t.db, { organizationId: org.id, groupId: group.id });
  wearer = await createWearer(t, { organizationId: org.id, groupId, gateway, name: '山田 花子' });
  family = await createUser(t, { role: 'PERSONAL', linkedWearerIds: [wearer.uid] });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** LINE's webhook as it signs it ("Signature validation": base64 HMAC-SHA256 of the body). */
function webhook(events: object[], secret = CHANNEL_SECRET) {
  const body = JSON.stringify({ destination: 'Uxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', events });
  return t.app.inject({
    method: 'POST',
    url: `/v2/chat/line/${orgId}`,
    headers: {
      'content-type': 'application/json',
      'x-line-signature': lineSignature(secret, body),
    },
    payload: body,
  });
}
const textEvent = (text: string) => ({
  type: 'message',
  webhookEventId: randomUUID(),
  replyToken: `rt-${randomUUID()}`,
  source: { type: 'user', userId: LINE_USER },
  deliveryContext: { isRedelivery: false },
  message: { id: '444573844083572737', type: 'text', text },
});

async function openSos(): Promise<string> {
  // One open SOS per wearer: the previous story's is closed first.
  await t.db.query(
    "UPDATE alerts SET status = 'CLOSED', closed_at = now() WHERE wearer_id = $1 AND status = 'OPEN'",
    [wearer.uid],
  );
  const at = new Date();
  const alert = await alertWritesRepository(t.db).insertOpen({
    id: randomUUID(),
    organizationId: orgId,
    groupId,
    wearerId: wearer.uid,
    braceletId: wearer.bracelet.id,
    type: 'SOS_CALL',
    level: 'EMERGENCY',
    openedAt: at,
    raisedAt: at,
    cause: { rule: 'test', values: {}, windowStart: at.toISOString(), windowEnd: at.toISOString() },
    notify: true,
  });
  if (!alert) throw new Error('alert not opened');
  await notificationsService(t.ctx, t.ctx.phone).alertOpened(alert.id);
  return alert.id;
}
const lineRow = async (alertId: string) =>
  (
    await t.db.query<{
      id: string;
      status: string;
      provider_id: string | null;
      error: string | null;
      seen_at: Date | null;
    }>(
      "SELECT id, status, provider_id, error, seen_at FROM notifications WHERE alert_id = $1 AND channel = 'LINE'",
      [alertId],
    )
  )[0]!;

describe('X-Line-Signature', () => {
  it('is the base64 HMAC-SHA256 of the body with the channel secret; anything else is refused', () => {
    const body = '{"destination":"U1","events":[]}';
    const sig = lineSignature(CHANNEL_SECRET, body);
    expect(sig).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(isLineSignatureValid(CHANNEL_SECRET, sig, body)).toBe(true);
    expect(isLineSignatureValid(CHANNEL_SECRET, sig, `${body} `)).toBe(false);
    expect(isLineSignatureValid('another-secret-123', sig, body)).toBe(false);
    expect(isLineSignatureValid(CHANNEL_SECRET, undefined, body)).toBe(false);
  });
});

describe('a family member told on LINE', () => {
  it('the owner sets LINE up (secrets sealed, hints only); other roles and organisations cannot', async () => {
    const url = `/v2/organization/${orgId}/chatChannels/LINE`;
    const payload = {
      channel: 'LINE',
      channelAccessToken: FAKE_LINE_TOKEN,
      channelSecret: CHANNEL_SECRET,
    };
    for (const who of [nurse, other]) {
      const res = await t.app.inject({ method: 'PUT', url, headers: who.headers, payload });
      expect([403, 404]).toContain(res.statusCode);
    }
    const res = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(FAKE_LINE_TOKEN);
    expect(res.body).not.toContain(CHANNEL_SECRET);
    expect(res.json()).toMatchObject({
      channel: 'LINE',
      secrets: { channelAccessToken: '…cdef', channelSecret: '…2345' },
      callbackUrl: expect.stringContaining(`/v2/chat/line/${orgId}`),
      lineMessages: { sent: 0, free: 200 },
    });
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/v2/organization/${orgId}/chatChannels/LINE`,
      headers: owner.headers,
      payload: { channel: 'LINE', channelSecret: 'short' },
    });
    expect(bad.statusCode).toBe(400);
    // A test validates the token and sends nothing (LINE's validate endpoint).
    const test = await t.app.inject({ method: 'POST', url: `${url}/test`, headers: owner.headers });
    expect(test.json()).toMatchObject({ status: 'delivered' });
    expect(fake.received.at(-1)?.route).toBe('validate');
  });

  it('a group cannot name LINE as a staff recipient', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${groupId}/alertNoticeSettings`,
      headers: owner.headers,
      payload: {
        recipients: [
          {
            userId: nurse.uid,
            channel: 'LINE',
            alertTypes: ['SOS_CALL'],
            schedule: {},
            order: 1,
          },
        ],
      },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('links their LINE user by a one-time code, then may choose LINE (409 before)', async () => {
    const early = await t.app.inject({
      method: 'PUT',
      url: `/v3/user/familyNotices/${wearer.uid}`,
      headers: family.headers,
      payload: { channel: 'LINE' },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'NO_LINE_LINK' });
    // Staff have no family LINE code.
    const staffCode = await t.app.inject({
      method: 'POST',
      url: '/v3/user/familyNotices/lineCode',
      headers: nurse.headers,
    });
    expect(staffCode.statusCode).toBe(403);
    const codeRes = await t.app.inject({
      method: 'POST',
      url: '/v3/user/familyNotices/lineCode',
      headers: family.headers,
    });
    expect(codeRes.statusCode, codeRes.body).toBe(200);
    const { code } = codeRes.json<{ code: string }>();
    // A wrong signature does nothing.
    expect((await webhook([textEvent(code)], 'not-the-secret-000')).statusCode).toBe(403);
    fake.reset();
    const linked = await webhook([textEvent(`連携コード ${code}`)]);
    expect(linked.statusCode, linked.body).toBe(200);
    const reply = fake.received.find((r) => r.route === 'reply');
    expect(JSON.parse(reply!.body)).toMatchObject({
      messages: [{ type: 'text', text: CHAT_REPLIES.lineLinked }],
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/v3/user/familyNotices',
      headers: family.headers,
    });
    expect(list.json()).toMatchObject({ line: { available: true, linked: true } });
    const chose = await t.app.inject({
      method: 'PUT',
      url: `/v3/user/familyNotices/${wearer.uid}`,
      headers: family.headers,
      payload: { channel: 'LINE' },
    });
    expect(chose.statusCode, chose.body).toBe(200);
    expect(chose.json()).toMatchObject({ channel: 'LINE' });
  });

  it('an SOS is pushed to their LINE with 見ました; the press is recorded and confirms nothing for the staff', async () => {
    fake.reset();
    const alertId = await openSos();
    const push = fake.received.find((r) => r.route === 'push')!;
    expect(push.headers.authorization).toBe(`Bearer ${FAKE_LINE_TOKEN}`);
    const row = await lineRow(alertId);
    expect(push.headers['x-line-retry-key']).toBe(lineRetryKey(row.id));
    expect(push.headers['x-line-retry-key']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const body = JSON.parse(push.body);
    expect(body.to).toBe(LINE_USER);
    expect(body.messages[0].type).toBe('text');
    expect(body.messages[0].text).toContain('山田');
    expect(body.messages[1].template.actions[0]).toMatchObject({
      type: 'postback',
      label: '見ました',
      data: `seen:${row.id}`,
    });
    expect(row).toMatchObject({ status: 'delivered', provider_id: expect.any(String) });

    fake.reset();
    const press = await webhook([
      {
        type: 'postback',
        webhookEventId: randomUUID(),
        replyToken: 'rt-press',
        source: { type: 'user', userId: LINE_USER },
        postback: { data: `seen:${row.id}` },
      },
    ]);
    expect(press.statusCode).toBe(200);
    const seenAt = (await lineRow(alertId)).seen_at;
    expect(seenAt).not.toBeNull();
    expect(JSON.parse(fake.received.find((r) => r.route === 'reply')!.body).messages[0].text).toBe(
      CHAT_REPLIES.lineSeen,
    );
    const [alert] = await t.db.query<{ confirmed_at: Date | null }>(
      'SELECT confirmed_at FROM alerts WHERE id = $1',
      [alertId],
    );
    expect(alert!.confirmed_at).toBeNull();
    // Another LINE user's press on it records nothing.
    const stranger = await webhook([
      {
        type: 'postback',
        webhookEventId: randomUUID(),
        replyToken: 'rt-x',
        source: { type: 'user', userId: 'U0000000000000000000000000000000' },
        postback: { data: `seen:${row.id}` },
      },
    ]);
    expect(stranger.statusCode).toBe(200);
    expect(JSON.parse(fake.received.at(-1)!.body).messages[0].text).toBe(CHAT_REPLIES.lineNotYours);
    expect((await lineRow(alertId)).seen_at).toEqual(seenAt);

    const list = await t.app.inject({
      method: 'GET',
      url: `/v2/organization/${orgId}/chatChannels`,
      headers: owner.headers,
    });
    const line = list
      .json<{ channels: { channel: string; lineMessages?: { sent: number } }[] }>()
      .channels.find((c) => c.channel === 'LINE');
    expect(line?.lineMessages?.sent).toBe(1);
  });

  describe("LINE's bad answers lose nothing and send nothing twice", () => {
    it('429 with Retry-After, then sent: the retry carries the same X-Line-Retry-Key', async () => {
      fake.reset();
      fake.script('push', { status: 429, retryAfter: '0' });
      const row = await lineRow(await openSos());
      const pushes = fake.received.filter((r) => r.route === 'push');
      expect(pushes).toHaveLength(2);
      expect(pushes[0]!.headers['x-line-retry-key']).toBe(pushes[1]!.headers['x-line-retry-key']);
      expect(row.status).toBe('delivered');
    });

    it('5xx twice, then sent', async () => {
      fake.reset();
      fake.script('push', { status: 500 }, { status: 503 });
      const row = await lineRow(await openSos());
      expect(fake.received.filter((r) => r.route === 'push')).toHaveLength(3);
      expect(row.status).toBe('delivered');
    });

    it('a timeout after LINE accepted it: resent with the same key, LINE drops the duplicate (409)', async () => {
      fake.reset();
      const before = fake.delivered.length;
      fake.script('push', 'acceptThenHang');
      const row = await lineRow(await openSos());
      const pushes = fake.received.filter((r) => r.route === 'push');
      expect(pushes).toHaveLength(2);
      expect(pushes[0]!.headers['x-line-retry-key']).toBe(pushes[1]!.headers['x-line-retry-key']);
      // One message reached the family member.
      expect(fake.delivered.length - before).toBe(1);
      expect(row.status).toBe('delivered');
    });

    it("401 (a revoked token): failed at once with LINE's reason, not retried", async () => {
      fake.reset();
      await t.app.inject({
        method: 'PUT',
        url: `/v2/organization/${orgId}/chatChannels/LINE`,
        headers: owner.headers,
        payload: { channel: 'LINE', channelAccessToken: 'revoked-token-0000000000' },
      });
      const row = await lineRow(await openSos());
      expect(fake.received.filter((r) => r.route === 'push')).toHaveLength(1);
      expect(row.status).toBe('failed');
      expect(row.error).toContain('HTTP 401');
      expect(row.error).not.toContain('revoked-token');
    });
  });

  it('a redelivered event does nothing twice; unlinking drops the LINE choice', async () => {
    const codeRes = await t.app.inject({
      method: 'POST',
      url: '/v3/user/familyNotices/lineCode',
      headers: family.headers,
    });
    const event = textEvent(codeRes.json<{ code: string }>().code);
    fake.reset();
    await webhook([event]);
    await webhook([{ ...event, deliveryContext: { isRedelivery: true } }]);
    expect(fake.received.filter((r) => r.route === 'reply')).toHaveLength(1);
    const unlink = await t.app.inject({
      method: 'DELETE',
      url: '/v3/user/familyNotices/line',
      headers: family.headers,
    });
    expect(unlink.statusCode).toBe(204);
    const list = await t.app.inject({
      method: 'GET',
      url: '/v3/user/familyNotices',
      headers: family.headers,
    });
    expect(list.json()).toMatchObject({
      wearers: [{ uid: wearer.uid, channel: null }],
      line: { available: true, linked: false },
    });
    const again = await t.app.inject({
      method: 'DELETE',
      url: '/v3/user/familyNotices/line',
      headers: family.headers,
    });
    expect(again.statusCode).toBe(404);
  });
});
