import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_SCHEDULE, DEFAULT_SCHEDULE } from '@wearable/domain';
import {
  ACTOR_NAMES,
  type ActorName,
  type World,
  buildWorld,
  insertAlert,
} from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const url = () => `/v2/group/${w.g1}/alertNoticeSettings`;
const call = (who: ActorName, method: 'GET' | 'PUT', payload?: object) =>
  t.app.inject({
    method,
    url: url(),
    headers: w.users[who].headers,
    ...(payload ? { payload } : {}),
  });
const recipient = (over: object = {}) => ({
  phoneNumber: '+819012345678',
  channel: 'SMS',
  alertTypes: ['SOS_CALL'],
  schedule: DEFAULT_SCHEDULE,
  order: 1,
  ...over,
});
const count = async () =>
  (
    await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM group_alert_notice_settings WHERE group_id = $1',
      [w.g1],
    )
  )[0]?.n;

/** Reading g1's notice settings, and replacing them (owners and the group's managers only). */
const ACCESS: Record<ActorName, { get: number; put: number }> = {
  ALL_OWNER: { get: 200, put: 200 },
  ALL_GENERAL: { get: 200, put: 403 },
  ORGANIZATION_OWNER: { get: 200, put: 200 },
  ORGANIZATION_GENERAL: { get: 200, put: 403 },
  ORGANIZATION_GROUP: { get: 200, put: 200 },
  GROUP_MANAGER_OTHER_GROUP: { get: 404, put: 404 },
  OTHER_ORG_OWNER: { get: 404, put: 404 },
  // Personal roles never hold the permission: 403 whatever the group (so nothing about it leaks).
  PERSONAL_LINKED: { get: 403, put: 403 },
  PERSONAL_UNLINKED: { get: 403, put: 403 },
  PERSONAL_SELF: { get: 403, put: 403 },
};

describe('group alert notice settings', () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    expect((await call(who, 'GET')).statusCode).toBe(ACCESS[who].get);
    const order = ACTOR_NAMES.indexOf(who) + 1;
    const res = await call(who, 'PUT', { recipients: [recipient({ order })] });
    expect(res.statusCode).toBe(ACCESS[who].put);
    const now = (await call('ORGANIZATION_OWNER', 'GET')).json().recipients;
    if (ACCESS[who].put === 200) expect(now).toEqual([recipient({ order })]);
    else expect(now[0]?.order).not.toBe(order);
  });

  it('stores staff and phone recipients with their schedules and order', async () => {
    const owner = w.users.ORGANIZATION_OWNER;
    const recipients = [
      {
        userId: owner.uid,
        channel: 'PHONE_CALL',
        alertTypes: ['SOS_CALL', 'DETECT_FALL_DOWN'],
        schedule: BUSINESS_SCHEDULE,
        order: 2,
      },
      recipient(),
    ];
    const res = await call('ORGANIZATION_OWNER', 'PUT', { recipients });
    expect(res.statusCode).toBe(200);
    expect(res.json().recipients).toEqual([
      recipient(),
      { ...recipients[0], userName: owner.name },
    ]);
  });

  it.each([
    [{ recipients: [recipient({ userId: 'usr-x' })] }, 'body.recipients.0.userId'],
    [{ recipients: [recipient({ phoneNumber: undefined })] }, 'body.recipients.0.userId'],
    [{ recipients: [recipient({ phoneNumber: '090-1234' })] }, 'body.recipients.0.phoneNumber'],
    [{ recipients: [recipient({ channel: 'FAX' })] }, 'body.recipients.0.channel'],
    [{ recipients: [recipient({ alertTypes: [] })] }, 'body.recipients.0.alertTypes'],
    [{ recipients: [recipient({ alertTypes: ['NOPE'] })] }, 'body.recipients.0.alertTypes.0'],
    [{ recipients: [recipient({ order: 0 })] }, 'body.recipients.0.order'],
    [
      {
        recipients: [
          recipient({
            schedule: {
              ...DEFAULT_SCHEDULE,
              monday: { enabled: true, startTime: '24:00', endTime: '23:59' },
            },
          }),
        ],
      },
      'body.recipients.0.schedule.monday.startTime',
    ],
    [{}, 'body.recipients'],
  ])('bad body %# is a 400 naming %s, nothing changed', async (payload, field) => {
    const before = await count();
    const res = await call('ORGANIZATION_OWNER', 'PUT', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect(await count()).toBe(before);
  });

  it('refuses staff of another organisation and wearers as recipients', async () => {
    for (const userId of [w.users.OTHER_ORG_OWNER.uid, w.w1.uid, w.users.PERSONAL_LINKED.uid]) {
      const res = await call('ORGANIZATION_OWNER', 'PUT', {
        recipients: [recipient(), recipient({ phoneNumber: undefined, userId })],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('body.recipients.1.userId');
    }
  });

  it('public holidays: Sunday row by default; the setting is stored with the recipients, kept when absent, audited', async () => {
    expect((await call('ORGANIZATION_OWNER', 'GET')).json()).toMatchObject({
      publicHolidaysAsWeekdays: false,
    });
    const on = await call('ORGANIZATION_OWNER', 'PUT', {
      recipients: [recipient()],
      publicHolidaysAsWeekdays: true,
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ publicHolidaysAsWeekdays: true });
    // A client that does not know the setting leaves it as it is.
    const kept = await call('ORGANIZATION_OWNER', 'PUT', { recipients: [recipient()] });
    expect(kept.json()).toMatchObject({ publicHolidaysAsWeekdays: true });
    const [audit] = await t.db.query<{ after: { publicHolidaysAsWeekdays?: boolean } }>(
      `SELECT after FROM audit_log WHERE kind = 'noticeSettings.update' AND target_id = $1
         AND after ? 'publicHolidaysAsWeekdays' ORDER BY at DESC LIMIT 1`,
      [w.g1],
    );
    expect(audit?.after.publicHolidaysAsWeekdays).toBe(true);
    const bad = await call('ORGANIZATION_OWNER', 'PUT', {
      recipients: [recipient()],
      publicHolidaysAsWeekdays: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/publicHolidaysAsWeekdays/);
    // Back to the default for the other tests of this file.
    await call('ORGANIZATION_OWNER', 'PUT', { recipients: [], publicHolidaysAsWeekdays: false });
  });

  it('names the group and its organisation (the page at /groups/{groupId}/alert-notice-settings needs both)', async () => {
    const body = (await call('ALL_OWNER', 'GET')).json();
    const [group] = await t.db.query<{ name: string; organization_id: string }>(
      'SELECT name, organization_id FROM groups WHERE id = $1',
      [w.g1],
    );
    expect(body).toMatchObject({
      groupId: w.g1,
      groupName: group!.name,
      clientId: group!.organization_id,
    });
  });

  it('an unknown group is 404', async () => {
    const res = await t.app.inject({
      url: '/v2/group/grp-nope/alertNoticeSettings',
      headers: w.users.ALL_OWNER.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

/** Who reads the notification log of an alert of w1 (staff only; it shows phone numbers). */
const LOG: Record<ActorName, number | 'none'> = {
  ALL_OWNER: 1,
  ALL_GENERAL: 1,
  ORGANIZATION_OWNER: 1,
  ORGANIZATION_GENERAL: 1,
  ORGANIZATION_GROUP: 1,
  GROUP_MANAGER_OTHER_GROUP: 0,
  OTHER_ORG_OWNER: 0,
  PERSONAL_LINKED: 'none',
  PERSONAL_UNLINKED: 'none',
  PERSONAL_SELF: 'none',
};

describe('GET /v2/notifications', () => {
  let alertId: string;
  beforeAll(async () => {
    alertId = await insertAlert(t.db, w.w1);
    await t.db.query(
      `INSERT INTO notifications (id, organization_id, alert_id, step, channel, recipient, provider, status, text, created_at, updated_at)
       VALUES ('n-1', $1, $2, 1, 'SMS', '+819012345678', 'embedded', 'sent', 'x', now(), now())`,
      [w.orgA, alertId],
    );
  });

  it.each(ACTOR_NAMES)('%s', async (who) => {
    const res = await t.app.inject({
      url: `/v2/notifications?alertId=${alertId}`,
      headers: w.users[who].headers,
    });
    if (LOG[who] === 'none') return expect(res.statusCode).toBe(403);
    expect(res.statusCode).toBe(200);
    expect(res.json().notifications).toHaveLength(LOG[who]);
  });

  it('bad page is a 400 naming it', async () => {
    const res = await t.app.inject({
      url: '/v2/notifications?page=0',
      headers: w.users.ALL_OWNER.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('querystring.page');
  });
});
