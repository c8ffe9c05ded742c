import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FamilyNoticesResponse } from '@wearable/domain';
import { type ActorName, buildWorld, insertAlert, type World } from '../../testing/world.js';
import {
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { connectSse, until } from '../../testing/sse-client.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { embeddedProvider } from '../notifications/notification-provider.js';
import { notificationsService } from '../notifications/notifications.service.js';

let t: TestApp;
let w: World;
let base: string;
/** A second family of organisation A: watches w2 only (w2 is in the same organisation as w1). */
let otherFamily: UserRecord;

const FAMILY_PHONE = '+819012340001';
const QUIET_PHONE = '+819012340002';
const OTHER_PHONE = '+819012340003';

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  await t.db.query('UPDATE users SET phone_number = $1 WHERE id = $2', [
    FAMILY_PHONE,
    w.users.PERSONAL_LINKED.uid,
  ]);
  otherFamily = await createUser(t, {
    role: 'PERSONAL',
    linkedWearerIds: [w.w2.uid],
    phoneNumber: OTHER_PHONE,
  });
  // Linked to w1 too, with a phone number, but never opts in.
  await createUser(t, {
    role: 'PERSONAL',
    linkedWearerIds: [w.w1.uid],
    phoneNumber: QUIET_PHONE,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** Waits for an async probe (the SSE client's `until` takes a synchronous one). */
async function eventually<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const put = (headers: { authorization: string }, uid: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v3/user/familyNotices/${uid}`, headers, payload });
const list = (headers: { authorization: string }) =>
  t.app.inject({ method: 'GET', url: '/v3/user/familyNotices', headers });

async function sos(wearer: WearerRecord): Promise<string> {
  const res = await t.app.inject({
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
  return eventually(async () => {
    const [row] = await t.db.query<{ id: string }>(
      "SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'",
      [wearer.uid],
    );
    return row?.id;
  });
}

const noticesOf = (alertId: string) =>
  t.db.query<{ channel: string; recipient: string; user_id: string | null; text: string }>(
    'SELECT channel, recipient, user_id, text FROM notifications WHERE alert_id = $1 ORDER BY created_at',
    [alertId],
  );

describe('PUT /v3/user/familyNotices/{uid}: who may choose to be told of wearer w1', () => {
  // Only the family member linked to w1; staff do not choose for a family; a stranger or another
  // organisation does not learn that w1 exists (404).
  const TABLE: Record<ActorName, number> = {
    ALL_OWNER: 403,
    ALL_GENERAL: 403,
    ORGANIZATION_OWNER: 403,
    ORGANIZATION_GENERAL: 403,
    ORGANIZATION_GROUP: 403,
    GROUP_MANAGER_OTHER_GROUP: 403,
    OTHER_ORG_OWNER: 403,
    PERSONAL_LINKED: 200,
    PERSONAL_UNLINKED: 404,
    PERSONAL_SELF: 403,
  };
  for (const [actor, status] of Object.entries(TABLE) as [ActorName, number][]) {
    it(`${actor}: ${status}`, async () => {
      const res = await put(w.users[actor].headers, w.w1.uid, { channel: null });
      expect(res.statusCode).toBe(status);
      if (status === 404) expect(res.json()).toMatchObject({ code: 'WEARER_NOT_FOUND' });
    });
  }

  it("another family's wearer, in the same organisation or another, is a 404 for the family member", async () => {
    for (const uid of [w.w2.uid, w.wB.uid, 'wr-nobody']) {
      const res = await put(w.users.PERSONAL_LINKED.headers, uid, { channel: 'SMS' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'WEARER_NOT_FOUND' });
    }
  });

  it('names what is wrong in bad input (400) and a channel the account cannot take (409)', async () => {
    const headers = w.users.PERSONAL_LINKED.headers;
    for (const payload of [{}, { channel: 'FAX' }, { channel: 'SMS', extra: 1 }, { channel: 1 }]) {
      const res = await put(headers, w.w1.uid, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/channel|extra|body/);
    }
    expect((await put(headers, 'x'.repeat(65), { channel: null })).statusCode).toBe(400);
    // A family member without a phone number cannot choose SMS.
    const noPhone = await createUser(t, { role: 'PERSONAL', linkedWearerIds: [w.w1.uid] });
    const res = await put(noPhone.headers, w.w1.uid, { channel: 'SMS' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'NO_PHONE_NUMBER' });
    expect((await put(noPhone.headers, w.w1.uid, { channel: 'EMAIL' })).statusCode).toBe(200);
  });
});

describe('GET /v3/user/familyNotices', () => {
  it("lists the caller's watched wearers with their choice and where messages go; staff may not", async () => {
    const headers = w.users.PERSONAL_LINKED.headers;
    expect((await put(headers, w.w1.uid, { channel: 'SMS' })).json()).toEqual({
      uid: w.w1.uid,
      name: w.w1.name,
      channel: 'SMS',
    });
    const res = await list(headers);
    expect(res.statusCode).toBe(200);
    expect(res.json<FamilyNoticesResponse>()).toEqual({
      wearers: [{ uid: w.w1.uid, name: w.w1.name, channel: 'SMS' }],
      phoneNumber: FAMILY_PHONE,
      email: w.users.PERSONAL_LINKED.email,
      pushSubscriptions: 0,
      // The organisation has no LINE official account set up (chat-channels/line.story.test.ts has one).
      line: { available: false, linked: false },
    });
    expect((await list(w.users.PERSONAL_UNLINKED.headers)).json()).toMatchObject({ wearers: [] });
    expect((await list(w.users.ORGANIZATION_OWNER.headers)).statusCode).toBe(403);
    expect((await list(w.users.PERSONAL_SELF.headers)).statusCode).toBe(403);
  });
});

describe('an SOS of a watched wearer', () => {
  it('sends the opted-in family member an SMS, not the one who did not opt in, nor another family', async () => {
    expect(
      (await put(w.users.PERSONAL_LINKED.headers, w.w1.uid, { channel: 'SMS' })).statusCode,
    ).toBe(200);
    expect((await put(otherFamily.headers, w.w2.uid, { channel: 'SMS' })).statusCode).toBe(200);
    const alertId = await sos(w.w1);
    const sent = await eventually(async () => {
      const rows = await noticesOf(alertId);
      return rows.some((r) => r.recipient === FAMILY_PHONE) ? rows : undefined;
    });
    const family = sent.filter((r) => r.recipient === FAMILY_PHONE);
    expect(family).toHaveLength(1);
    expect(family[0]).toMatchObject({ channel: 'SMS', user_id: w.users.PERSONAL_LINKED.uid });
    expect(family[0]!.text).toContain(w.w1.name);
    expect(family[0]!.text).toContain('SOS');
    // No place and no staff console link in a family member's message.
    expect(family[0]!.text).not.toContain('http');
    expect(sent.map((r) => r.recipient)).not.toContain(QUIET_PHONE);
    expect(sent.map((r) => r.recipient)).not.toContain(OTHER_PHONE);
  });

  it('mails a family member who chose mail; a CRITICAL alert goes through the policy, a CAUTION not at all', async () => {
    const wearer = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
    const mailer = await createUser(t, { role: 'PERSONAL', linkedWearerIds: [wearer.uid] });
    const texter = await createUser(t, {
      role: 'PERSONAL',
      linkedWearerIds: [wearer.uid],
      phoneNumber: '+819012340009',
    });
    expect((await put(mailer.headers, wearer.uid, { channel: 'EMAIL' })).statusCode).toBe(200);
    expect((await put(texter.headers, wearer.uid, { channel: 'SMS' })).statusCode).toBe(200);
    const notifier = notificationsService(t.ctx, embeddedProvider);
    const critical = await insertAlert(t.db, wearer, { type: 'HEATSTROKE' });
    await notifier.alertOpened(critical);
    await t.ctx.mail.idle();
    const rows = await t.db.query<{ channel: string; user_id: string; reason: string | null }>(
      `SELECT channel, user_id, reason FROM notifications
        WHERE user_id = ANY($1::text[]) ORDER BY channel`,
      [[mailer.uid, texter.uid]],
    );
    expect(rows).toEqual([
      { channel: 'EMAIL', user_id: mailer.uid, reason: null },
      // The notification policy decided it (the first of a window is sent at once).
      { channel: 'SMS', user_id: texter.uid, reason: expect.any(String) as string },
    ]);
    const caution = await insertAlert(t.db, wearer, { type: 'HEART_RATE' });
    await notifier.alertOpened(caution);
    expect(await noticesOf(caution)).toEqual([]);
  });
});

describe("another family's wearer's alert never reaches this family member", () => {
  it('not on the live stream, not in the alert list, not by id', async () => {
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/v3/live/ticket',
      headers: w.users.PERSONAL_LINKED.headers,
    });
    const stream = connectSse(`${base}/v3/live?ticket=${ticket.json<{ ticket: string }>().ticket}`);
    const others = connectSse(`${base}/v3/live`, otherFamily.headers);
    await until(() => (stream.status() === 200 && others.status() === 200 ? true : undefined));
    // w2 is in the same organisation; after w2's SOS, w1's: once w1's frame arrived, w2's had its chance.
    const w2Alert = await sos(w.w2);
    await until(() =>
      others.events.find((e) => e.event === 'alert' && e.data.alert?.wearer.uid === w.w2.uid),
    );
    // The sentinel: w1's open SOS (the story above) confirmed by staff reaches its family member.
    const [w1Alert] = await t.db.query<{ id: string }>(
      "SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'",
      [w.w1.uid],
    );
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: { alertId: w1Alert!.id },
    });
    expect(confirmed.statusCode).toBe(200);
    await until(() =>
      stream.events.find(
        (e) =>
          e.event === 'alert' &&
          e.data.action === 'confirmed' &&
          e.data.alert?.wearer.uid === w.w1.uid,
      ),
    );
    const seen = (c: typeof stream) =>
      new Set(
        c.events.flatMap((e) =>
          e.event === 'alert'
            ? [e.data.alert?.wearer.uid]
            : e.event === 'summary'
              ? [e.data.uid]
              : [],
        ),
      );
    expect(seen(stream).has(w.w2.uid)).toBe(false);
    expect(seen(others).has(w.w1.uid)).toBe(false);
    stream.close();
    others.close();

    const headers = w.users.PERSONAL_LINKED.headers;
    const listed = await t.app.inject({ url: '/v2/alert/list?status=OPEN', headers });
    expect(listed.statusCode).toBe(200);
    const uids = listed
      .json<{ alerts: { wearer: { uid: string } }[] }>()
      .alerts.map((a) => a.wearer.uid);
    expect(uids).not.toContain(w.w2.uid);
    const filtered = await t.app.inject({ url: `/v2/alert/list?uid=${w.w2.uid}`, headers });
    expect(filtered.json<{ alerts: unknown[] }>().alerts ?? []).toEqual([]);
    const timeline = await t.app.inject({ url: `/v2/alert/${w2Alert}/timeline`, headers });
    // Staff only (403 whatever the id), so nothing about w2's alert either.
    expect([403, 404]).toContain(timeline.statusCode);
    // And the other family's SMS is theirs alone.
    const rows = await noticesOf(w2Alert);
    expect(rows.map((r) => r.recipient)).not.toContain(FAMILY_PHONE);
  });
});
