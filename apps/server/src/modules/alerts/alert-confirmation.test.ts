import { CONFIRM_NOTE_MAX } from '@wearable/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTOR_NAMES,
  type ActorName,
  type World,
  buildWorld,
  insertAlert,
} from '../../testing/world.js';
import { createOrganization, createUser, createWearer } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import type { AlertRecord } from '../../bus/events.js';

/**
 * Acknowledgement semantics (PRODUCT.md): any alert, open or already closed by recovery, can be
 * confirmed by staff who may see it; "unconfirmed" is "nobody confirmed it yet", so confirming
 * everything brings the count behind the popup and the badges to zero.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const post = (who: ActorName, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, headers: w.users[who].headers });
const row = async (id: string) =>
  (
    await t.db.query<Record<string, unknown>>(
      'SELECT status, close_reason, confirmed_by, confirmed_at, confirm_reason, confirm_note FROM alerts WHERE id = $1',
      [id],
    )
  )[0];

/** Confirming a recovered (closed) alert of w1: the same answers as for an open one. */
const CONFIRM_CLOSED: Record<ActorName, number> = {
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

describe('confirming an alert that already ended', () => {
  it.each(ACTOR_NAMES)('%s confirming a recovered alert of w1 with a reason', async (who) => {
    const alertId = await insertAlert(t.db, w.w1, { type: 'HEART_RATE', status: 'CLOSED' });
    const res = await post(who, '/v2/alert/confirm', { alertId, reason: 'FALSE_ALARM' });
    expect(res.statusCode).toBe(CONFIRM_CLOSED[who]);
    const stored = await row(alertId);
    if (res.statusCode === 200) {
      expect(res.json()).toEqual({ alertId, result: 'confirmed' });
      expect(stored).toMatchObject({
        status: 'CLOSED',
        close_reason: 'recovered',
        confirmed_by: w.users[who].uid,
        confirm_reason: 'FALSE_ALARM',
        confirm_note: null,
      });
    } else {
      expect(stored).toMatchObject({
        confirmed_by: null,
        confirmed_at: null,
        confirm_reason: null,
      });
    }
  });

  it('records who, when, the reason and the note; the list shows them; a second confirm changes nothing', async () => {
    const alertId = await insertAlert(t.db, w.w1, { type: 'NON_WEARING', status: 'CLOSED' });
    const before = Date.now();
    const res = await post('ORGANIZATION_GENERAL', '/v2/alert/confirm', {
      alertId,
      reason: 'CHECKED_ON_SITE',
      note: '  電池切れ。交換済み  ',
    });
    expect(res.json()).toEqual({ alertId, result: 'confirmed' });
    const list = await t.app.inject({
      url: `/v2/alert/list?uid=${w.w1.uid}&pageSize=200`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    const view = list
      .json<{ alerts: Record<string, unknown>[] }>()
      .alerts.find((a) => a.id === alertId)!;
    expect(view).toMatchObject({
      status: 'CLOSED',
      closeReason: 'recovered',
      confirmedBy: { uid: w.users.ORGANIZATION_GENERAL.uid, name: expect.any(String) },
      confirmReason: 'CHECKED_ON_SITE',
      confirmNote: '電池切れ。交換済み',
    });
    expect(Date.parse(String(view.confirmedAt))).toBeGreaterThanOrEqual(before - 1000);

    const again = await post('ORGANIZATION_OWNER', '/v2/alert/confirm', {
      alertId,
      reason: 'OTHER',
      note: 'x',
    });
    expect(again.json()).toEqual({ alertId, result: 'already_confirmed' });
    expect(await row(alertId)).toMatchObject({
      confirmed_by: w.users.ORGANIZATION_GENERAL.uid,
      confirm_reason: 'CHECKED_ON_SITE',
    });
  });
});

describe('count to zero', () => {
  it('batch confirming every open and ended alert leaves nothing unconfirmed, with one reason and note for all', async () => {
    const org = await createOrganization(t.db);
    const staff = await createUser(t, { organizationId: org.id, role: 'ORGANIZATION_GENERAL' });
    const a = await createWearer(t, { organizationId: org.id });
    const b = await createWearer(t, { organizationId: org.id });
    const ids = [
      await insertAlert(t.db, a, { type: 'SOS_CALL' }),
      await insertAlert(t.db, a, { type: 'HEART_RATE', status: 'CLOSED' }),
      await insertAlert(t.db, a, { type: 'NON_WEARING', status: 'CLOSED' }),
      await insertAlert(t.db, b, { type: 'DISCONNECTION' }),
      await insertAlert(t.db, b, { type: 'HEART_RATE', status: 'CLOSED' }),
    ];
    const unconfirmed = async () =>
      (
        await t.app.inject({
          url: '/v2/alert/list?notConfirmed=true&pageSize=1',
          headers: staff.headers,
        })
      ).json<{ total: number }>().total;
    expect(await unconfirmed()).toBe(5);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/batchConfirm',
      headers: staff.headers,
      payload: { alertIds: ids, reason: 'TREATED', note: '休憩所で対応' },
    });
    expect(res.json().results).toEqual(ids.map((alertId) => ({ alertId, result: 'confirmed' })));
    expect(await unconfirmed()).toBe(0);
    const stored = await t.db.query<{
      status: string;
      close_reason: string;
      confirm_reason: string;
      confirm_note: string;
    }>(
      'SELECT status, close_reason, confirm_reason, confirm_note FROM alerts WHERE id = ANY($1) ORDER BY id',
      [ids],
    );
    expect(
      stored.every(
        (r) =>
          r.status === 'CLOSED' &&
          r.confirm_reason === 'TREATED' &&
          r.confirm_note === '休憩所で対応',
      ),
    ).toBe(true);
    expect(stored.filter((r) => r.close_reason === 'confirmed')).toHaveLength(2);
  });
});

describe('events after commit', () => {
  it('an open alert emits alert.closed (reason confirmed), an ended one alert.confirmed, for the live stream', async () => {
    const open = await insertAlert(t.db, w.w1, { type: 'HEART_RATE_ANOMALY_SUSTAINED' });
    const ended = await insertAlert(t.db, w.w1, { type: 'AWAKENING_ALERT', status: 'CLOSED' });
    const seen: string[] = [];
    const onClosed = (a: AlertRecord) =>
      seen.push(`closed ${a.id} ${a.closeReason} ${a.confirmReason}`);
    const onConfirmed = (a: AlertRecord) =>
      seen.push(`confirmed ${a.id} ${a.closeReason} ${a.confirmReason}`);
    t.ctx.bus.on('alert.closed', onClosed);
    t.ctx.bus.on('alert.confirmed', onConfirmed);
    await post('ORGANIZATION_OWNER', '/v2/alert/batchConfirm', {
      alertIds: [open, ended],
      reason: 'OTHER',
    });
    t.ctx.bus.off('alert.closed', onClosed);
    t.ctx.bus.off('alert.confirmed', onConfirmed);
    expect(seen.sort()).toEqual(
      [`closed ${open} confirmed OTHER`, `confirmed ${ended} recovered OTHER`].sort(),
    );
  });
});

describe('the CSV shows the confirmation', () => {
  it.each([
    ['ja', '確認理由,確認メモ', '病院へ搬送,"救急車で搬送, 付き添いあり"'],
    ['en', 'Confirm reason,Confirm note', 'Transferred to hospital,"救急車で搬送, 付き添いあり"'],
  ])('%s', async (lng, header, cells) => {
    const alertId = await insertAlert(t.db, w.w1, { type: 'DETECT_FALL_DOWN', status: 'CLOSED' });
    await post('ORGANIZATION_OWNER', '/v2/alert/confirm', {
      alertId,
      reason: 'TRANSFERRED_TO_HOSPITAL',
      note: '救急車で搬送, 付き添いあり',
    });
    const res = await t.app.inject({
      url: `/v2/alert/listCsv?uid=${w.w1.uid}&lng=${lng}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toContain(header);
    expect(lines.find((l) => l.startsWith(alertId))).toContain(cells);
  });
});

describe('bad input is a 400 naming the field', () => {
  const long = 'x'.repeat(CONFIRM_NOTE_MAX + 1);
  it.each([
    ['/v2/alert/confirm', { alertId: 'a', reason: 'BORED' }, 'body.reason'],
    ['/v2/alert/confirm', { alertId: 'a', note: long }, 'body.note'],
    ['/v2/alert/confirm', { alertId: 'a', note: 42 }, 'body.note'],
    ['/v2/alert/batchConfirm', { alertIds: ['a'], reason: 'false_alarm' }, 'body.reason'],
    ['/v2/alert/batchConfirm', { alertIds: ['a'], note: long }, 'body.note'],
    ['/v2/alert/batchConfirm', { alertIds: ['a'], reason: null }, 'body.reason'],
  ])('%s %j', async (url, payload, field) => {
    const res = await post('ORGANIZATION_OWNER', url, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('a note of exactly the maximum length is accepted', async () => {
    const alertId = await insertAlert(t.db, w.w1, { type: 'HEART_RATE', status: 'CLOSED' });
    const res = await post('ORGANIZATION_OWNER', '/v2/alert/confirm', {
      alertId,
      note: 'あ'.repeat(CONFIRM_NOTE_MAX),
    });
    expect(res.json()).toEqual({ alertId, result: 'confirmed' });
  });
});
