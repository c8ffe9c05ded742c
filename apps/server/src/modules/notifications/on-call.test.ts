import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AlertNoticeSettingsResponse,
  DEFAULT_SCHEDULE,
  onCallAt,
  type OnCallResponse,
  type OnCallRota,
} from '@wearable/domain';
import {
  ACTOR_NAMES,
  type ActorName,
  buildWorld,
  insertAlert,
  type World,
} from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import type { NotificationProvider } from './notification-provider.js';
import { notificationsService } from './notifications.service.js';
import { onCallService } from './on-call.service.js';
import { onCallHandoversService } from './on-call-handovers.service.js';

let t: TestApp;
let w: World;
const PHONES: Partial<Record<ActorName, string>> = {
  ORGANIZATION_OWNER: '+819070000001',
  ORGANIZATION_GENERAL: '+819070000002',
  ORGANIZATION_GROUP: '+819070000003',
};
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  for (const [who, phone] of Object.entries(PHONES))
    await t.db.query('UPDATE users SET phone_number = $2 WHERE id = $1', [
      w.users[who as ActorName].uid,
      phone,
    ]);
});
afterAll(() => t.close());

const uid = (who: ActorName) => w.users[who].uid;
const inject = (
  who: ActorName,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: string,
  payload?: object,
  groupId = w.g1,
) =>
  t.app.inject({
    method,
    url: `/v2/group/${groupId}/onCall${path}`,
    headers: w.users[who].headers,
    ...(payload ? { payload } : {}),
  });
const daily = (members: string[], over: Partial<OnCallRota> = {}): OnCallRota => ({
  kind: 'daily',
  startsOn: '2026-12-01',
  handoverTime: '09:00',
  members,
  ...over,
});
const hours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** Reading g1's on-call rota, and changing it (the people who set its notice recipients). */
const ACCESS: Record<ActorName, { get: number; put: number }> = {
  ALL_OWNER: { get: 200, put: 200 },
  ALL_GENERAL: { get: 200, put: 403 },
  ORGANIZATION_OWNER: { get: 200, put: 200 },
  ORGANIZATION_GENERAL: { get: 200, put: 403 },
  ORGANIZATION_GROUP: { get: 200, put: 200 },
  GROUP_MANAGER_OTHER_GROUP: { get: 404, put: 404 },
  OTHER_ORG_OWNER: { get: 404, put: 404 },
  PERSONAL_LINKED: { get: 403, put: 403 },
  PERSONAL_UNLINKED: { get: 403, put: 403 },
  PERSONAL_SELF: { get: 403, put: 403 },
};

describe('the on-call API, for every role', () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const { get, put } = ACCESS[who];
    expect((await inject(who, 'GET', '')).statusCode).toBe(get);
    const rota = daily([uid('ORGANIZATION_GENERAL'), uid('ORGANIZATION_OWNER')]);
    const res = await inject(who, 'PUT', '/rota', { rota });
    expect(res.statusCode, res.body).toBe(put);
    const body = { userId: uid('ORGANIZATION_GROUP'), startsAt: hours(1), endsAt: hours(2) };
    const added = await inject(who, 'POST', '/overrides', body);
    expect(added.statusCode).toBe(put === 200 ? 201 : put);
    // Removing: an override the owner added, by its id.
    const mine = await inject('ORGANIZATION_OWNER', 'POST', '/overrides', body);
    const id = mine.json<{ overrides: { id: string }[] }>().overrides.at(-1)?.id ?? '';
    expect((await inject(who, 'DELETE', `/overrides/${id}`)).statusCode).toBe(put);
  });
});

describe('the rota and its overrides', () => {
  it('answers who is on call now and next, by name, in the organisation’s zone', async () => {
    // The role table's overrides (an hour from now) would cut the slot: none here.
    await t.db.query('DELETE FROM group_on_call_overrides WHERE group_id = $1', [w.g1]);
    const members = [uid('ORGANIZATION_GENERAL'), uid('ORGANIZATION_OWNER')];
    const res = await inject('ORGANIZATION_OWNER', 'PUT', '/rota', { rota: daily(members) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<OnCallResponse>();
    const expected = onCallAt(daily(members), [], new Date(), 'Asia/Tokyo');
    expect(body).toMatchObject({ groupId: w.g1, timeZone: 'Asia/Tokyo', rota: daily(members) });
    expect(body.now.people.map((p) => p.userId)).toEqual(expected.userIds);
    expect(body.now.until).toBe(expected.until.toISOString());
    expect(body.next.people).toHaveLength(1);
    expect(body.next.people[0]?.userId).not.toBe(expected.userIds[0]);
    expect(body.candidates.map((c) => c.userId)).toContain(uid('ORGANIZATION_GROUP'));
  });

  it('refuses people who are not staff of the organisation, and bad rotas, naming what is wrong', async () => {
    const stranger = await inject('ORGANIZATION_OWNER', 'PUT', '/rota', {
      rota: daily([uid('ORGANIZATION_OWNER'), uid('OTHER_ORG_OWNER'), uid('PERSONAL_LINKED')]),
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toBe(
      `body.rota.members.1: ${uid('OTHER_ORG_OWNER')} is not staff of this organisation; ` +
        `body.rota.members.2: ${uid('PERSONAL_LINKED')} is not staff of this organisation`,
    );
    const shifts = await inject('ORGANIZATION_OWNER', 'PUT', '/rota', {
      rota: { ...daily([uid('ORGANIZATION_OWNER')]), kind: 'shifts' },
    });
    expect(shifts.statusCode).toBe(400);
    expect(shifts.json().message).toContain('shiftPattern');
    const backwards = await inject('ORGANIZATION_OWNER', 'POST', '/overrides', {
      userId: uid('ORGANIZATION_OWNER'),
      startsAt: hours(2),
      endsAt: hours(1),
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain('endsAt');
    const past = await inject('ORGANIZATION_OWNER', 'POST', '/overrides', {
      userId: uid('ORGANIZATION_OWNER'),
      startsAt: hours(-3),
      endsAt: hours(-2),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('body.endsAt: is in the past');
    const gone = await inject('ORGANIZATION_OWNER', 'DELETE', '/overrides/no-such-override');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('OVERRIDE_NOT_FOUND');
    // Another group's override is not this group's to remove.
    const other = await inject(
      'ORGANIZATION_OWNER',
      'POST',
      '/overrides',
      { userId: uid('ORGANIZATION_OWNER'), startsAt: hours(1), endsAt: hours(2) },
      w.g2,
    );
    const otherId = other.json<{ overrides: { id: string }[] }>().overrides[0]?.id ?? '';
    expect((await inject('ORGANIZATION_OWNER', 'DELETE', `/overrides/${otherId}`)).statusCode).toBe(
      404,
    );
  });

  it('records every change in the audit log', async () => {
    const rows = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE kind = 'onCall.change' AND target_id = $1`,
      [w.g1],
    );
    expect(rows[0]?.n).toBeGreaterThan(3);
  });

  it('removing the rota leaves nobody on call but an override', async () => {
    const res = await inject('ORGANIZATION_OWNER', 'PUT', '/rota', { rota: null });
    expect(res.json()).toMatchObject({ rota: null, now: { people: [], source: 'none' } });
  });
});

describe('whoever is on call, as an escalation step', () => {
  const sent: { to: string; text: string }[] = [];
  const recording: NotificationProvider = {
    name: 'recording',
    sendSms: (to, text) => {
      sent.push({ to, text });
      return Promise.resolve({ status: 'delivered' });
    },
    call: (to, text) => {
      sent.push({ to, text });
      return Promise.resolve({ status: 'delivered' });
    },
  };

  async function recipients(list: object[]) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${w.g2}/alertNoticeSettings`,
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: { recipients: list },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AlertNoticeSettingsResponse>();
  }
  const onCallRow = (order: number) => ({
    onCall: true,
    channel: 'SMS',
    alertTypes: ['SOS_CALL'],
    schedule: DEFAULT_SCHEDULE,
    order,
  });

  it('is stored and answered as a recipient of its own kind', async () => {
    const body = await recipients([
      onCallRow(1),
      {
        phoneNumber: '+819099990000',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: DEFAULT_SCHEDULE,
        order: 2,
      },
    ]);
    expect(body.recipients[0]).toEqual(onCallRow(1));
    const both = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${w.g2}/alertNoticeSettings`,
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: { recipients: [{ ...onCallRow(1), phoneNumber: '+819099990000' }] },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toContain('give exactly one of userId, phoneNumber or onCall');
  });

  it('reaches the person on call now; with nobody on call the step is logged as failed and the next one follows', async () => {
    const g2Rota = daily([uid('ORGANIZATION_GENERAL')]);
    expect(
      (await inject('ORGANIZATION_OWNER', 'PUT', '/rota', { rota: g2Rota }, w.g2)).statusCode,
    ).toBe(200);
    const svc = notificationsService(t.ctx, recording);
    const alertId = await insertAlert(t.db, w.w2, { type: 'SOS_CALL' });
    sent.length = 0;
    await svc.alertOpened(alertId);
    expect(sent.map((s) => s.to)).toEqual([PHONES.ORGANIZATION_GENERAL]);

    // An override for now: the same alert type, the override's person.
    const o = await inject(
      'ORGANIZATION_OWNER',
      'POST',
      '/overrides',
      { userId: uid('ORGANIZATION_GROUP'), startsAt: hours(-1), endsAt: hours(1), note: '交代' },
      w.g2,
    );
    expect(o.json().now).toMatchObject({
      source: 'override',
      people: [{ userId: uid('ORGANIZATION_GROUP') }],
    });
    const close = (id: string) =>
      t.db.query("UPDATE alerts SET status = 'CLOSED', closed_at = now() WHERE id = $1", [id]);
    await close(alertId);
    const second = await insertAlert(t.db, w.w2, { type: 'SOS_CALL' });
    sent.length = 0;
    await svc.alertOpened(second);
    expect(sent.map((s) => s.to)).toEqual([PHONES.ORGANIZATION_GROUP]);

    // No rota and no override: nobody to reach at step 1; the escalation goes on to step 2.
    await inject('ORGANIZATION_OWNER', 'PUT', '/rota', { rota: null }, w.g2);
    await inject(
      'ORGANIZATION_OWNER',
      'DELETE',
      `/overrides/${o.json().overrides[0].id}`,
      undefined,
      w.g2,
    );
    await close(second);
    const third = await insertAlert(t.db, w.w2, { type: 'SOS_CALL' });
    sent.length = 0;
    await svc.alertOpened(third);
    expect(sent).toEqual([]);
    const [failed] = await t.db.query<{ status: string; error: string }>(
      'SELECT status, error FROM notifications WHERE alert_id = $1',
      [third],
    );
    expect(failed).toEqual({ status: 'failed', error: 'nobody is on call' });
    const later = notificationsService(
      {
        ...t.ctx,
        now: () => new Date(Date.now() + (t.ctx.config.escalationAfterSeconds + 5) * 1000),
      },
      recording,
    );
    await later.sweep(w.orgA);
    expect(sent.map((s) => s.to)).toContain('+819099990000');
  });

  it('on a public holiday, the weekend turn; unless the group treats holidays as weekdays', async () => {
    const rota = daily([uid('ORGANIZATION_GENERAL')], {
      startsOn: '2027-02-08',
      holidayMembers: [uid('ORGANIZATION_OWNER')],
    });
    expect((await inject('ORGANIZATION_OWNER', 'PUT', '/rota', { rota }, w.g2)).statusCode).toBe(
      200,
    );
    // 2027-02-11 (Thursday) is 建国記念の日 (from @holiday-jp/holiday_jp).
    const holiday = new Date('2027-02-11T12:00:00+09:00');
    const svc = onCallService(t.ctx);
    expect((await svc.onCallNow(w.g2, holiday)).userIds).toEqual([uid('ORGANIZATION_OWNER')]);
    expect((await svc.onCallNow(w.g2, new Date('2027-02-10T12:00:00+09:00'))).userIds).toEqual([
      uid('ORGANIZATION_GENERAL'),
    ]);
    await t.db.query('UPDATE groups SET public_holidays_as_weekdays = true WHERE id = $1', [w.g2]);
    expect((await svc.onCallNow(w.g2, holiday)).userIds).toEqual([uid('ORGANIZATION_GENERAL')]);
    await t.db.query('UPDATE groups SET public_holidays_as_weekdays = false WHERE id = $1', [w.g2]);
  });

  it('tells whoever comes on call the open alerts, once per handover', async () => {
    const rota = daily([uid('ORGANIZATION_GENERAL'), uid('ORGANIZATION_OWNER')], {
      startsOn: '2027-03-01',
      handoverTime: '09:00',
    });
    await inject('ORGANIZATION_OWNER', 'PUT', '/rota', { rota }, w.g2);
    const at = (iso: string) => ({ ...t.ctx, now: () => new Date(iso) });
    sent.length = 0;
    // 2 March 09:05: the owner's turn began five minutes ago.
    const handovers = onCallHandoversService(at('2027-03-02T09:05:00+09:00'), recording);
    expect(await handovers.sweep(w.orgA)).toBe(1);
    expect(await handovers.sweep(w.orgA)).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe(PHONES.ORGANIZATION_OWNER);
    expect(sent[0]?.text).toMatch(
      /^【当番】.+ の当番は 09:00 から 2027\/03\/03 09:00 まであなたです。未確認のアラート \d+件: /,
    );
    expect(sent[0]?.text).toContain('SOS');
    // An hour after the handover nothing is sent (a server down at 09:00 does not tell it at 10:00).
    sent.length = 0;
    expect(
      await onCallHandoversService(at('2027-03-03T10:00:00+09:00'), recording).sweep(w.orgA),
    ).toBe(0);
    expect(sent).toEqual([]);
    // The log holds it, as a message to that person.
    const [logged] = await t.db.query<{ user_id: string; status: string }>(
      `SELECT user_id, status FROM notifications WHERE text LIKE '【当番】%' AND organization_id = $1`,
      [w.orgA],
    );
    expect(logged).toEqual({ user_id: uid('ORGANIZATION_OWNER'), status: 'delivered' });
  });
});
