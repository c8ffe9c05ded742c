import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AlertTimelineResponse, DEFAULT_SCHEDULE } from '@wearable/domain';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { embeddedProvider } from '../notifications/notification-provider.js';
import { notificationsService } from '../notifications/notifications.service.js';

let t: TestApp;
let w: World;
let alertId: string;

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  await t.db.query("UPDATE users SET phone_number = '+819012340000' WHERE id = $1", [
    w.users.ORGANIZATION_OWNER.uid,
  ]);
  const put = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${w.g1}/alertNoticeSettings`,
    headers: w.users.ORGANIZATION_OWNER.headers,
    payload: {
      recipients: [
        {
          userId: w.users.ORGANIZATION_OWNER.uid,
          channel: 'SMS',
          alertTypes: ['SOS_CALL'],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
        {
          phoneNumber: '+819012340002',
          channel: 'SMS',
          alertTypes: ['SOS_CALL'],
          schedule: DEFAULT_SCHEDULE,
          order: 2,
        },
      ],
    },
  });
  expect(put.statusCode).toBe(200);
  const sent = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${w.w1.gateway.id}:${w.w1.gateway.credential}` },
    payload: {
      events: [
        { serialNumber: w.w1.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
      ],
    },
  });
  expect(sent.statusCode).toBe(200);
  alertId = await until(
    async () =>
      (
        await t.db.query<{ id: string }>(
          "SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'",
          [w.w1.uid],
        )
      )[0]?.id,
  );
  await until(async () =>
    (await t.db.query('SELECT 1 FROM notification_escalations WHERE alert_id = $1', [alertId]))
      .length
      ? true
      : undefined,
  );
  // Nobody confirms in time (the timer made due now): the sweep escalates to step 2.
  await t.db.query(
    "UPDATE notification_escalations SET due_at = now() - interval '1 second' WHERE alert_id = $1",
    [alertId],
  );
  // (The app's own sweeper may take it first: either way step 2 is sent once.)
  // This organisation's only: test files share a PostgreSQL database.
  await notificationsService(t.ctx, embeddedProvider).sweep(w.orgA);
  await until(async () =>
    (await t.db.query('SELECT 1 FROM notifications WHERE alert_id = $1 AND step = 2', [alertId]))
      .length
      ? true
      : undefined,
  );
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/v2/alert/confirm',
    headers: w.users.ORGANIZATION_GENERAL.headers,
    payload: { alertId, reason: 'CHECKED_ON_SITE', note: '現場で確認、異常なし' },
  });
  expect(confirmed.json()).toEqual({ alertId, result: 'confirmed' });
});
afterAll(() => t.close());

const get = (who: ActorName, id = alertId) =>
  t.app.inject({
    url: `/v2/alert/${encodeURIComponent(id)}/timeline`,
    headers: w.users[who].headers,
  });

describe('GET /v2/alert/{alertId}/timeline', () => {
  it("tells the alert's story from stored rows: raised, notices and their delivery, escalation, confirmation, closing", async () => {
    const res = await get('ORGANIZATION_OWNER');
    expect(res.statusCode).toBe(200);
    const { alert, events } = res.json<AlertTimelineResponse>();
    expect(alert).toMatchObject({
      id: alertId,
      type: 'SOS_CALL',
      confirmReason: 'CHECKED_ON_SITE',
      confirmNote: '現場で確認、異常なし',
    });
    expect(events.map((e) => e.kind)).toEqual([
      'raised',
      'notification',
      'escalation',
      'notification',
      'confirmed',
      'escalationEnded',
      'closed',
    ]);
    const [raised, first, escalation, second, confirmation, ended, closed] = events;
    expect(raised).toMatchObject({ kind: 'raised', at: alert.openedAt, notified: true });
    expect(first).toMatchObject({
      kind: 'notification',
      step: 1,
      channel: 'SMS',
      recipient: '+819012340000',
      recipientName: w.users.ORGANIZATION_OWNER.name,
      provider: 'embedded',
      status: 'delivered',
      failedAt: null,
      error: null,
    });
    // The embedded provider delivers at once.
    if (first?.kind !== 'notification') throw new Error('not a notification');
    expect(first.deliveredAt).toBe(first.sentAt);
    expect(Date.parse(first.sentAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.at));
    expect(escalation).toMatchObject({ kind: 'escalation', step: 2, callsInstead: false });
    expect(second).toMatchObject({
      kind: 'notification',
      step: 2,
      recipient: '+819012340002',
      recipientName: null,
      status: 'delivered',
    });
    expect(confirmation).toMatchObject({
      kind: 'confirmed',
      at: alert.confirmedAt,
      by: { uid: w.users.ORGANIZATION_GENERAL.uid, name: w.users.ORGANIZATION_GENERAL.name },
      reason: 'CHECKED_ON_SITE',
      note: '現場で確認、異常なし',
    });
    expect(ended).toMatchObject({
      kind: 'escalationEnded',
      reason: 'confirmed',
      at: alert.confirmedAt,
    });
    expect(closed).toMatchObject({ kind: 'closed', reason: 'confirmed', at: alert.closedAt });
  });

  it('role table: staff who see the wearer; 404 for another organisation or group; 403 for personal users (it names who was called)', async () => {
    const expected: Record<ActorName, number> = {
      ALL_OWNER: 200,
      ALL_GENERAL: 200,
      ORGANIZATION_OWNER: 200,
      ORGANIZATION_GENERAL: 200,
      ORGANIZATION_GROUP: 200,
      GROUP_MANAGER_OTHER_GROUP: 404,
      OTHER_ORG_OWNER: 404,
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    };
    const got = Object.fromEntries(
      await Promise.all(
        ACTOR_NAMES.map(async (who) => [who, (await get(who)).statusCode] as const),
      ),
    );
    expect(got).toEqual(expected);
  });

  it('bad input: unknown id 404, an id over 64 characters 400 naming the field, no token 401', async () => {
    const unknown = await get('ORGANIZATION_OWNER', 'no-such-alert');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ALERT_NOT_FOUND' });
    const long = await get('ORGANIZATION_OWNER', 'x'.repeat(65));
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('alertId');
    expect((await t.app.inject({ url: `/v2/alert/${alertId}/timeline` })).statusCode).toBe(401);
  });
});
