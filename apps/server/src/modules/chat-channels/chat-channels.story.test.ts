import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE } from '@wearable/domain';
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
import { type ChatFakes, startChatFakes } from '../../testing/chat-fakes.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { loadConfig } from '../../config.js';
import { chatChannelsService } from './chat-channels.service.js';
import { CHAT_REPLIES } from './chat-callbacks.service.js';
import { lineWorksSignature } from './line-works.js';
import { isSlackSignatureValid, slackSignature } from './slack.js';

/**
 * An organisation's alerts in Slack, Teams and LINE WORKS, told through the real app with only the
 * vendors faked (testing/chat-fakes.ts cites the documents each fake follows): the owner sets the
 * channels up, a group names them as recipients, an SOS reaches each fake with a valid token, a staff
 * member links their chat user with a one-time code and confirms from Slack and from LINE WORKS (the
 * alerts module's confirmation: the escalation stops); unlinked presses, bad signatures and replays do
 * nothing; the vendors' bad answers (401, 429 with Retry-After, 5xx, timeouts) lose nothing and send
 * nothing twice.
 */

const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const BOT_SECRET = 'lw-bot-secret-0123456789';
let t: TestApp;
let fakes: ChatFakes;
let owner: UserRecord;
let nurse: UserRecord;
let other: UserRecord;
let wearer: WearerRecord;
let wearer2: WearerRecord;
let orgId = '';
let groupId = '';

beforeAll(async () => {
  fakes = await startChatFakes();
  const base = loadConfig({ LOG_LEVEL: 'silent', SIMULATOR: 'false' });
  t = await createTestApp({
    webhooks: { ...base.webhooks, worker: false, allowPrivate: true },
    chat: {
      slackApiUrl: fakes.slackApiUrl,
      lineWorksApiUrl: fakes.lineWorksApiUrl,
      lineWorksAuthUrl: fakes.lineWorksAuthUrl,
      lineApiUrl: base.chat.lineApiUrl,
      timeoutMs: 400,
      retryBaseMs: 10,
    },
  });
  // This file's notices are sent by hand (alertOpened); the sweeper must not act meanwhile.
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  const org = await createOrganization(t);
  orgId = org.id;
  const group = await createGroup(t, { organizationId: org.id, name: '2階東' });
  groupId = group.id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  nurse = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id });
  const otherOrg = await createOrganization(t);
  other = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: otherOrg.id });
  const gateway = await createGateway(t.db, { organizationId: org.id, groupId: group.id });
  wearer = await createWearer(t, {
    organizationId: org.id,
    groupId: group.id,
    gateway,
    name: '山田 花子',
  });
  wearer2 = await createWearer(t, {
    organizationId: org.id,
    groupId: group.id,
    gateway,
    name: '佐藤 一郎',
  });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
});

const put = (channel: string, payload: object, headers = owner.headers) =>
  t.app.inject({
    method: 'PUT',
    url: `/v2/organization/${orgId}/chatChannels/${channel}`,
    headers,
    payload: { channel, ...payload },
  });

/** An SOS (or a CRITICAL heat alert) the engine opened, told to the group's recipients as the alert outbox would. */
async function openSos(type: 'SOS_CALL' | 'HEATSTROKE' = 'SOS_CALL', w = wearer): Promise<string> {
  const at = new Date();
  const alert = await alertWritesRepository(t.db).insertOpen({
    id: randomUUID(),
    organizationId: orgId,
    groupId,
    wearerId: w.uid,
    braceletId: w.bracelet.id,
    type,
    level: type === 'SOS_CALL' ? 'EMERGENCY' : 'CRITICAL',
    openedAt: at,
    raisedAt: at,
    cause: { rule: 'test', values: {}, windowStart: at.toISOString(), windowEnd: at.toISOString() },
    notify: true,
  });
  if (!alert) throw new Error('alert not opened');
  await notificationsService(t.ctx, t.ctx.phone).alertOpened(alert.id);
  return alert.id;
}

/** Slack's request as it signs it ("Verifying requests from Slack"). */
function slackSigned(form: Record<string, string>, opts: { at?: number; secret?: string } = {}) {
  const body = new URLSearchParams(form).toString();
  const ts = String(opts.at ?? Math.floor(Date.now() / 1000));
  return {
    method: 'POST' as const,
    url: `/v2/chat/slack/${orgId}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': ts,
      'x-slack-signature': slackSignature(opts.secret ?? SIGNING_SECRET, ts, body),
    },
    payload: body,
  };
}
const slackPost = (form: Record<string, string>, opts: { at?: number; secret?: string } = {}) =>
  t.app.inject(slackSigned(form, opts));

/** The LINE WORKS bot's callback as it signs it ("Callback": X-WORKS-Signature). */
function lineWorksPost(event: object, secret = BOT_SECRET) {
  const body = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: `/v2/chat/lineWorks/${orgId}`,
    headers: {
      'content-type': 'application/json',
      'x-works-signature': lineWorksSignature(secret, body),
      'x-works-botid': '2000001',
    },
    payload: body,
  });
}

const pressOf = (alertId: string, slackUser: string, n: string) =>
  slackSigned({
    payload: JSON.stringify({
      type: 'block_actions',
      user: { id: slackUser, team_id: 'T00000000' },
      actions: [{ action_id: 'wearable_confirm', value: `confirm:${alertId}`, type: 'button' }],
      response_url: fakes.slackResponseUrl(n),
    }),
  });
const pressConfirm = (alertId: string, slackUser: string, n: string) =>
  t.app.inject(pressOf(alertId, slackUser, n));

const alertRow = async (id: string) =>
  (
    await t.db.query<{ confirmed_by: string | null }>(
      'SELECT confirmed_by FROM alerts WHERE id = $1',
      [id],
    )
  )[0]!;

describe('Slack request signatures', () => {
  it('match Slack\'s worked example ("Verifying requests from Slack")', () => {
    // The signing secret, timestamp, body and signature printed in Slack's document.
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature(SIGNING_SECRET, '1531420618', body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
    const headers = {
      signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
      timestamp: '1531420618',
    };
    expect(isSlackSignatureValid(SIGNING_SECRET, headers, body, new Date(1531420618_000))).toBe(
      true,
    );
    // Five minutes later it is a replay.
    expect(isSlackSignatureValid(SIGNING_SECRET, headers, body, new Date(1531420919_000))).toBe(
      false,
    );
  });
});

describe('an owner sets up the chat channels', () => {
  it('stores the secrets sealed and answers only their hints; other roles and organisations cannot', async () => {
    const slack = await put('SLACK', {
      botToken: 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
      signingSecret: SIGNING_SECRET,
      channelId: 'C123ABC456',
    });
    expect(slack.statusCode, slack.body).toBe(200);
    expect(slack.json()).toMatchObject({
      channel: 'SLACK',
      settings: { channelId: 'C123ABC456' },
      secrets: { botToken: '…bqgy', signingSecret: '…85a5' },
      confirms: true,
      callbackUrl: expect.stringContaining(`/v2/chat/slack/${orgId}`),
    });
    expect((await put('TEAMS', { webhookUrl: fakes.teamsWebhookUrl })).statusCode).toBe(200);
    const lw = await put('LINE_WORKS', {
      clientId: 'aBcDeFgHiJkLmN',
      clientSecret: 'lw-client-secret-xyz',
      serviceAccount: 'abcde.serviceaccount@example.co.jp',
      privateKey: fakes.lineWorksPrivateKey,
      botId: '2000001',
      botSecret: BOT_SECRET,
      channelId: 'channel-0001',
    });
    expect(lw.statusCode, lw.body).toBe(200);

    const list = await t.app.inject({
      url: `/v2/organization/${orgId}/chatChannels`,
      headers: nurse.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ channels: unknown[] }>().channels).toHaveLength(3);
    for (const secret of [SIGNING_SECRET, BOT_SECRET, 'pdFZKVeTuE8sk7oOcBrzbqgy', 'BEGIN PRIVATE'])
      expect(list.body).not.toContain(secret);
    const [row] = await t.db.query<{ secrets_sealed: string }>(
      "SELECT secrets_sealed FROM chat_channels WHERE organization_id = $1 AND kind = 'SLACK'",
      [orgId],
    );
    expect(row!.secrets_sealed).not.toContain(SIGNING_SECRET);

    // A secret left out keeps its value; an incomplete one names what is missing.
    expect((await put('SLACK', { channelId: 'C123ABC456' })).json()).toMatchObject({
      confirms: true,
    });
    const incomplete = await put('TEAMS', {}, owner.headers);
    expect(incomplete.statusCode).toBe(200); // the stored URL is kept
    const mismatch = await t.app.inject({
      method: 'PUT',
      url: `/v2/organization/${orgId}/chatChannels/TEAMS`,
      headers: owner.headers,
      payload: { channel: 'SLACK', channelId: 'C1' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(
      (await put('TEAMS', { webhookUrl: fakes.teamsWebhookUrl }, nurse.headers)).statusCode,
    ).toBe(403);
    expect(
      (await put('TEAMS', { webhookUrl: fakes.teamsWebhookUrl }, other.headers)).statusCode,
    ).toBe(404);
  });

  it('a group names the chat channels as recipients (not one the organisation has not set up)', async () => {
    const recipient = (channel: string) => ({
      channel,
      alertTypes: ['SOS_CALL', 'HEATSTROKE'],
      schedule: DEFAULT_SCHEDULE,
      order: 1,
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${groupId}/alertNoticeSettings`,
      headers: owner.headers,
      payload: { recipients: ['SLACK', 'TEAMS', 'LINE_WORKS'].map(recipient) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ recipients: { channel: string; userId?: string }[] }>().recipients).toEqual([
      expect.objectContaining({ channel: 'SLACK' }),
      expect.objectContaining({ channel: 'TEAMS' }),
      expect.objectContaining({ channel: 'LINE_WORKS' }),
    ]);
    const withPerson = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${groupId}/alertNoticeSettings`,
      headers: owner.headers,
      payload: { recipients: [{ ...recipient('SLACK'), userId: nurse.uid }] },
    });
    expect(withPerson.statusCode).toBe(400);
  });
});

describe('an SOS in the chat channels, confirmed from Slack and LINE WORKS', () => {
  let sos = '';

  it('reaches each fake once, with a valid token, and each attempt is logged with the receipt', async () => {
    fakes.clear();
    sos = await openSos();
    const [slack] = fakes.of('slack.postMessage');
    expect(slack!.headers.authorization).toMatch(/^Bearer xoxb-/);
    const message = JSON.parse(slack!.body) as { channel: string; text: string; blocks: object[] };
    expect(message.channel).toBe('C123ABC456');
    expect(message.text).toContain('山田 花子');
    expect(JSON.stringify(message.blocks)).toContain(`"value":"confirm:${sos}"`);
    const card = JSON.parse(fakes.of('teams.workflow')[0]!.body) as {
      attachments: { contentType: string; content: { actions: { type: string; url: string }[] } }[];
    };
    expect(card.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.attachments[0]!.content.actions[0]).toMatchObject({ type: 'Action.OpenUrl' });
    expect(fakes.of('lineWorks.token')).toHaveLength(1);
    const lw = fakes.of('lineWorks.channel')[0]!;
    expect(lw.headers.authorization).toBe('Bearer kr1AAABZQzQd2wQHIJcc24xT7XwBTg6pEk2AAA');
    expect(JSON.parse(lw.body)).toMatchObject({
      content: {
        type: 'button_template',
        actions: [
          { type: 'postback', label: '確認', data: `confirm:${sos}` },
          { type: 'uri', label: '詳細' },
        ],
      },
    });
    const log = await t.db.query<{
      channel: string;
      provider: string;
      status: string;
      provider_id: string | null;
    }>(
      'SELECT channel, provider, status, provider_id FROM notifications WHERE alert_id = $1 ORDER BY channel',
      [sos],
    );
    expect(log).toEqual([
      { channel: 'LINE_WORKS', provider: 'line-works', status: 'delivered', provider_id: null },
      {
        channel: 'SLACK',
        provider: 'slack',
        status: 'delivered',
        provider_id: expect.stringMatching(/^1503435956\./),
      },
      { channel: 'TEAMS', provider: 'teams', status: 'delivered', provider_id: null },
    ]);
  });

  it('an unlinked Slack user is refused; a bad or old signature is 403 and does nothing', async () => {
    expect((await pressConfirm(sos, 'U0UNLINKED', 'r1')).statusCode).toBe(200);
    await fakes.waitFor('slack.response');
    expect(JSON.parse(fakes.of('slack.response')[0]!.body)).toMatchObject({
      response_type: 'ephemeral',
      text: CHAT_REPLIES.unlinked,
    });
    const forged = await slackPost(
      { command: '/wearable', text: 'link ABCDEFGH', user_id: 'U1' },
      { secret: 'wrong-secret' },
    );
    expect(forged.statusCode).toBe(403);
    const old = await slackPost(
      { command: '/wearable', text: 'help' },
      { at: Math.floor(Date.now() / 1000) - 600 },
    );
    expect(old.statusCode).toBe(403);
    expect((await alertRow(sos)).confirmed_by).toBeNull();
  });

  it('a staff member links Slack with a one-time code and confirms; the escalation stops; a replay does nothing', async () => {
    const code = await t.app.inject({
      method: 'POST',
      url: '/v2/user/chatLinks/code',
      headers: nurse.headers,
    });
    expect(code.statusCode).toBe(200);
    const { code: value } = code.json<{ code: string }>();
    const linked = await slackPost({
      command: '/wearable',
      text: `link ${value}`,
      user_id: 'U2NURSE',
      team_id: 'T00000000',
    });
    expect(linked.json()).toEqual({ response_type: 'ephemeral', text: CHAT_REPLIES.linked });
    // The code works once.
    const again = await slackPost({
      command: '/wearable',
      text: `link ${value} `,
      user_id: 'U3OTHER',
    });
    expect(again.json()).toMatchObject({ text: CHAT_REPLIES.badCode });
    const links = await t.app.inject({ url: '/v2/user/chatLinks', headers: nurse.headers });
    expect(links.json()).toMatchObject({
      links: [{ channel: 'SLACK', chatUserId: 'U2NURSE' }],
      available: ['SLACK', 'LINE_WORKS'],
    });

    fakes.clear();
    const signedPress = pressOf(sos, 'U2NURSE', 'r2');
    const press = await t.app.inject(signedPress);
    expect(press.statusCode).toBe(200);
    expect((await alertRow(sos)).confirmed_by).toBe(nurse.uid);
    const [escalation] = await t.db.query<{ done_reason: string | null }>(
      'SELECT done_reason FROM notification_escalations WHERE alert_id = $1',
      [sos],
    );
    // Confirmed through the alerts module: the sweep finishes the escalation as confirmed, nobody else is told.
    await notificationsService(
      { ...t.ctx, now: () => new Date(Date.now() + 3_600_000) },
      t.ctx.phone,
    ).sweep(orgId);
    const [after] = await t.db.query<{ done_reason: string | null }>(
      'SELECT done_reason FROM notification_escalations WHERE alert_id = $1',
      [sos],
    );
    expect(escalation).toBeDefined();
    expect(after!.done_reason).toBe('confirmed');
    expect(fakes.of('slack.postMessage')).toHaveLength(0);
    expect(JSON.parse(fakes.of('slack.response')[0]!.body)).toMatchObject({
      text: CHAT_REPLIES.confirmed,
    });
    const audit = await t.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM audit_log WHERE kind = 'chatLink.change' AND target_id = $1",
      [nurse.uid],
    );
    expect(Number(audit[0]!.n)).toBe(1);

    // The very same signed request again (a replay): nothing answered, nothing done.
    const before = fakes.of('slack.response').length;
    expect((await t.app.inject(signedPress)).statusCode).toBe(200);
    expect(fakes.of('slack.response')).toHaveLength(before);
  });

  it('LINE WORKS: the code sent to the bot links; 確認 confirms as the linked account; an unlinked press is refused', async () => {
    const sos2 = await openSos();
    fakes.clear();
    const refused = await lineWorksPost({
      type: 'postback',
      data: `confirm:${sos2}`,
      source: { userId: 'lw-unlinked', channelId: 'channel-0001', domainId: 10000000 },
      issuedTime: new Date().toISOString(),
    });
    expect(refused.statusCode).toBe(204);
    expect(JSON.parse(fakes.of('lineWorks.user')[0]!.body)).toEqual({
      content: { type: 'text', text: CHAT_REPLIES.unlinked },
    });
    expect((await alertRow(sos2)).confirmed_by).toBeNull();

    const { code } = (
      await t.app.inject({ method: 'POST', url: '/v2/user/chatLinks/code', headers: owner.headers })
    ).json<{ code: string }>();
    await lineWorksPost({
      type: 'message',
      source: { userId: 'lw-owner-001', domainId: 10000000 },
      issuedTime: new Date().toISOString(),
      content: { type: 'text', text: code },
    });
    expect(JSON.parse(fakes.of('lineWorks.user')[1]!.body)).toMatchObject({
      content: { text: CHAT_REPLIES.linked },
    });
    const pressed = {
      type: 'postback',
      data: `confirm:${sos2}`,
      source: { userId: 'lw-owner-001', channelId: 'channel-0001', domainId: 10000000 },
      issuedTime: new Date().toISOString(),
    };
    expect((await lineWorksPost(pressed)).statusCode).toBe(204);
    expect((await alertRow(sos2)).confirmed_by).toBe(owner.uid);
    expect(JSON.parse(fakes.of('lineWorks.user')[2]!.body)).toMatchObject({
      content: { text: CHAT_REPLIES.confirmed },
    });
    // A replay: no second reply. A wrong signature: 403.
    await lineWorksPost(pressed);
    expect(fakes.of('lineWorks.user')).toHaveLength(3);
    expect((await lineWorksPost(pressed, 'not-the-bot-secret')).statusCode).toBe(403);
  });

  it("another organisation's owner cannot unlink or read these links; one's own link is removed", async () => {
    expect(
      (await t.app.inject({ url: '/v2/user/chatLinks', headers: other.headers })).json(),
    ).toMatchObject({
      links: [],
    });
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/v2/user/chatLinks/SLACK',
      headers: nurse.headers,
    });
    expect(del.statusCode).toBe(204);
    const again = await t.app.inject({
      method: 'DELETE',
      url: '/v2/user/chatLinks/SLACK',
      headers: nurse.headers,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('the notice policy groups and caps a chat channel as it does an SMS recipient', () => {
  it('a second CRITICAL alert within the window waits, and goes as one grouped message without 確認', async () => {
    fakes.clear();
    const first = await openSos('HEATSTROKE');
    const second = await openSos('HEATSTROKE', wearer2);
    expect(fakes.of('slack.postMessage')).toHaveLength(1);
    expect(fakes.of('teams.workflow')).toHaveLength(1);
    expect(JSON.parse(fakes.of('slack.postMessage')[0]!.body).blocks[1].elements[0].value).toBe(
      `confirm:${first}`,
    );
    const held = await t.db.query<{ channel: string; status: string; reason: string }>(
      'SELECT channel, status, reason FROM notifications WHERE alert_id = $1 ORDER BY channel',
      [second],
    );
    expect(held.map((h) => [h.channel, h.status])).toEqual([
      ['LINE_WORKS', 'withheld'],
      ['SLACK', 'withheld'],
      ['TEAMS', 'withheld'],
    ]);
    // The group window (2 minutes by default) ends: one grouped message per channel.
    await notificationsService(
      { ...t.ctx, now: () => new Date(Date.now() + 3 * 60_000) },
      t.ctx.phone,
    ).sweep(orgId);
    expect(fakes.of('slack.postMessage')).toHaveLength(2);
    expect(fakes.of('teams.workflow')).toHaveLength(2);
    expect(fakes.of('lineWorks.channel')).toHaveLength(2);
    const grouped = JSON.parse(fakes.of('slack.postMessage')[1]!.body) as { blocks: object[] };
    expect(JSON.stringify(grouped.blocks)).not.toContain('confirm:');
    expect(JSON.stringify(grouped.blocks)).toContain('/alert-histories');
  });
});

describe("the vendors' bad answers: nothing lost, nothing sent twice", () => {
  const notice = {
    title: 'テスト',
    text: '山田 花子 SOS',
    link: 'https://console.example/a/x',
    confirmAlertId: null,
  };
  const send = (channel: 'SLACK' | 'TEAMS' | 'LINE_WORKS') =>
    chatChannelsService(t.ctx).deliver(orgId, channel, notice);
  const cases = [
    { channel: 'SLACK', route: 'slack.postMessage' },
    { channel: 'TEAMS', route: 'teams.workflow' },
    { channel: 'LINE_WORKS', route: 'lineWorks.channel' },
  ] as const;

  for (const { channel, route } of cases) {
    it(`${channel}: 401 fails at once with the reason`, async () => {
      fakes.clear();
      fakes.script(route, [{ status: 401 }]);
      const r = await send(channel);
      expect(r.status).toBe('failed');
      expect(r.error).toContain('HTTP 401');
      expect(fakes.of(route)).toHaveLength(1);
    });

    it(`${channel}: 429 with Retry-After waits that long and is sent once`, async () => {
      fakes.clear();
      fakes.script(route, [{ status: 429, retryAfter: '1' }]);
      const r = await send(channel);
      expect(r.status).toBe('delivered');
      const [first, second] = fakes.of(route);
      expect(fakes.of(route)).toHaveLength(2);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    });

    it(`${channel}: 5xx is retried with backoff until it goes; three 5xx fail`, async () => {
      fakes.clear();
      fakes.script(route, [{ status: 500 }, { status: 503 }]);
      expect((await send(channel)).status).toBe('delivered');
      expect(fakes.of(route)).toHaveLength(3);
      fakes.clear();
      fakes.script(route, [{ status: 502 }, { status: 502 }, { status: 502 }]);
      const r = await send(channel);
      expect(r).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('gave up after 3'),
      });
      expect(fakes.of(route)).toHaveLength(3);
    });

    it(`${channel}: a timeout after sending is not resent (it may have arrived)`, async () => {
      fakes.clear();
      fakes.script(route, ['hang']);
      const r = await send(channel);
      expect(r).toMatchObject({ status: 'failed', error: expect.stringContaining('not resent') });
      expect(fakes.of(route)).toHaveLength(1);
    });
  }

  it('a wrong Slack token is refused by Slack (200 ok:false) and not retried', async () => {
    expect((await put('SLACK', { botToken: 'xoxb-wrong-token-0000' })).statusCode).toBe(200);
    fakes.clear();
    const r = await send('SLACK');
    expect(r).toMatchObject({ status: 'failed', error: 'Slack: invalid_auth' });
    expect(fakes.of('slack.postMessage')).toHaveLength(1);
    await put('SLACK', { botToken: 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy' });
  });
});
