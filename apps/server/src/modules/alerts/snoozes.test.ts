import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, HandoverResponse, SnoozeView } from '@wearable/domain';
import {
  ACTOR_NAMES,
  type ActorName,
  buildWorld,
  insertAlert,
  type World,
} from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { alertWritesRepository } from './alert-writes.repository.js';
import { snoozesService } from './snoozes.service.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const snooze = (who: ActorName, body: object) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/alert/snooze',
    headers: w.users[who].headers,
    payload: body,
  });
const end = (who: ActorName, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/v2/alert/snooze/${id}`, headers: w.users[who].headers });
const valid = () => ({
  uid: w.w1.uid,
  alertType: 'HEART_RATE',
  minutes: 60,
  reason: '運動中のため',
});

/** Opens an alert through the engine's write path, as a reading would. */
const open = (type: 'HEART_RATE' | 'NON_WEARING', at: Date) =>
  alertWritesRepository(t.db).insertOpen({
    id: randomUUID(),
    organizationId: w.w1.organizationId,
    groupId: w.w1.groupId,
    wearerId: w.w1.uid,
    braceletId: w.w1.bracelet.id,
    type,
    level: type === 'HEART_RATE' ? 'CAUTION' : 'DEVICE_STATUS',
    openedAt: at,
    raisedAt: at,
    cause: { rule: 'test', values: {}, windowStart: at.toISOString(), windowEnd: at.toISOString() },
    notify: true,
  });
const closeAll = () =>
  t.db.query(
    "UPDATE alerts SET status = 'CLOSED', closed_at = now() WHERE wearer_id = $1 AND status = 'OPEN'",
    [w.w1.uid],
  );

describe('POST /v2/alert/snooze', () => {
  it('role table: acting staff who reach the wearer; 404 beyond their scope; 403 for platform general staff and personal users', async () => {
    const expected: Record<ActorName, number> = {
      ALL_OWNER: 201,
      ALL_GENERAL: 403,
      ORGANIZATION_OWNER: 201,
      ORGANIZATION_GENERAL: 201,
      ORGANIZATION_GROUP: 201,
      GROUP_MANAGER_OTHER_GROUP: 404,
      OTHER_ORG_OWNER: 404,
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    };
    const got: Record<string, number> = {};
    for (const who of ACTOR_NAMES) {
      const res = await snooze(who, valid());
      got[who] = res.statusCode;
      if (res.statusCode === 201) {
        const view = res.json<SnoozeView>();
        expect(view).toMatchObject({
          alertType: 'HEART_RATE',
          level: 'CAUTION',
          reason: '運動中のため',
          active: true,
          createdBy: { uid: w.users[who].uid },
        });
        expect(Date.parse(view.until) - Date.parse(view.createdAt)).toBe(60 * 60_000);
        expect((await end(who, view.id)).json()).toMatchObject({
          active: false,
          endedBy: { uid: w.users[who].uid },
        });
      }
    }
    expect(got).toEqual(expected);
  });

  it('bad input: over 12 hours, unknown type, EMERGENCY or CRITICAL (naming why), blank reason, another organisation’s wearer, a second active snooze', async () => {
    const thirteenHours = await snooze('ORGANIZATION_OWNER', { ...valid(), minutes: 13 * 60 });
    expect(thirteenHours.statusCode).toBe(400);
    expect(thirteenHours.body).toContain('minutes');
    const unknown = await snooze('ORGANIZATION_OWNER', { ...valid(), alertType: 'NOT_A_TYPE' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('alertType');
    for (const alertType of [
      'SOS_CALL',
      'DETECT_FALL_DOWN',
      'HEATSTROKE',
      'ADVANCED_HEATSTROKE',
      'HEART_RATE_ANOMALY_SUSTAINED',
    ]) {
      const res = await snooze('ORGANIZATION_OWNER', { ...valid(), alertType });
      expect(res.statusCode, alertType).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ALERT_TYPE_NOT_SNOOZABLE' });
      expect(res.json<{ message: string }>().message).toMatch(
        /(EMERGENCY|CRITICAL) alert: EMERGENCY and CRITICAL alerts can never be snoozed/,
      );
    }
    expect((await snooze('ORGANIZATION_OWNER', { ...valid(), reason: '   ' })).statusCode).toBe(
      400,
    );
    expect((await snooze('ORGANIZATION_OWNER', { ...valid(), minutes: 0 })).statusCode).toBe(400);
    const foreign = await snooze('ORGANIZATION_OWNER', { ...valid(), uid: w.wB.uid });
    expect(foreign.statusCode).toBe(404);
    const first = await snooze('ORGANIZATION_OWNER', {
      ...valid(),
      alertType: 'DISCONNECTION',
      minutes: 720,
    });
    expect(first.statusCode).toBe(201);
    const second = await snooze('ORGANIZATION_GENERAL', { ...valid(), alertType: 'DISCONNECTION' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'ALREADY_SNOOZED' });
    expect((await end('ORGANIZATION_OWNER', first.json<SnoozeView>().id)).statusCode).toBe(200);
    expect((await end('OTHER_ORG_OWNER', first.json<SnoozeView>().id)).json()).toMatchObject({
      code: 'SNOOZE_NOT_FOUND',
    });
    expect((await end('ORGANIZATION_OWNER', 'no-such-snooze')).statusCode).toBe(404);
  });

  it('a snoozed type is recorded but not notified; after the snooze expires by itself, or is ended, it notifies again', async () => {
    const res = await snooze('ORGANIZATION_GENERAL', {
      ...valid(),
      alertType: 'NON_WEARING',
      minutes: 30,
    });
    const view = res.json<SnoozeView>();
    const during = await open('NON_WEARING', new Date(Date.parse(view.createdAt) + 60_000));
    expect(during).toMatchObject({ notify: false });
    const [stored] = await t.db.query<{ snooze_id: string | null }>(
      'SELECT snooze_id FROM alerts WHERE id = $1',
      [during?.id],
    );
    expect(stored?.snooze_id).toBe(view.id);
    // Another type of the same wearer is not snoozed.
    expect(await open('HEART_RATE', new Date(Date.parse(view.createdAt) + 60_000))).toMatchObject({
      notify: true,
    });
    await closeAll();
    // Past `until`: no longer snoozed, without anyone ending it; no longer listed as active.
    expect(await open('NON_WEARING', new Date(Date.parse(view.until) + 1))).toMatchObject({
      notify: true,
    });
    const listed = () =>
      t.app
        .inject({
          url: `/v2/alert/snoozes?uid=${w.w1.uid}`,
          headers: w.users.ORGANIZATION_OWNER.headers,
        })
        .then((r) => r.json<{ snoozes: SnoozeView[] }>().snoozes.map((x) => x.id));
    expect(await listed()).toContain(view.id);
    // The app clock past `until` (the service, not a request: a token would have expired by then).
    const owner: Actor = {
      uid: w.users.ORGANIZATION_OWNER.uid,
      role: 'ORGANIZATION_OWNER',
      organizationId: w.orgA,
      managedGroupIds: [],
      linkedWearerIds: [],
    };
    const later = { ...t.ctx, now: () => new Date(Date.parse(view.until) + 1) };
    expect(
      (await snoozesService(later).list(owner, { uid: w.w1.uid })).map((x) => x.id),
    ).not.toContain(view.id);
    expect(
      (await snoozesService(later).list(owner, { uid: w.w1.uid, includeEnded: 'true' })).find(
        (x) => x.id === view.id,
      ),
    ).toMatchObject({ active: false, endedAt: null });
    await closeAll();
    // Ended early: alerts after the end notify.
    const ended = (await end('ORGANIZATION_GENERAL', view.id)).json<SnoozeView>();
    expect(ended).toMatchObject({
      active: false,
      endedBy: { uid: w.users.ORGANIZATION_GENERAL.uid },
    });
    expect(await open('NON_WEARING', new Date(Date.parse(ended.endedAt ?? '') + 1))).toMatchObject({
      notify: true,
    });
    await closeAll();
  });

  it('is in the audit log (who, which type, until, why; and who ended it)', async () => {
    const view = (
      await snooze('ORGANIZATION_OWNER', {
        ...valid(),
        alertType: 'AWAKENING_ALERT',
        reason: '夜勤明け',
      })
    ).json<SnoozeView>();
    await end('ORGANIZATION_OWNER', view.id);
    const res = await t.app.inject({
      url: `/v2/audit?clientId=${w.orgA}&kind=alert.snooze&pageSize=200`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    const mine = res
      .json<{
        entries: {
          actorId: string;
          targetId: string;
          before: unknown;
          after: { snoozeId?: string };
        }[];
      }>()
      .entries.filter((e) => e.after?.snoozeId === view.id);
    expect(mine).toHaveLength(2);
    expect(mine.map((e) => e.after)).toEqual(
      expect.arrayContaining([
        { snoozeId: view.id, alertType: 'AWAKENING_ALERT', until: view.until, reason: '夜勤明け' },
        expect.objectContaining({ snoozeId: view.id, endedAt: expect.any(String) }),
      ]),
    );
    expect(
      mine.every((e) => e.actorId === w.users.ORGANIZATION_OWNER.uid && e.targetId === w.w1.uid),
    ).toBe(true);
  });
});

describe('GET /v2/alert/handover', () => {
  it('shows what is open, what was snoozed and by whom, and what was confirmed during the shift', async () => {
    const openId = await insertAlert(t.db, w.w2, { type: 'HEART_RATE' });
    const confirmedId = await insertAlert(t.db, w.w2, { type: 'DETECT_FALL_DOWN' });
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: w.users.ORGANIZATION_GENERAL.headers,
      payload: { alertId: confirmedId, reason: 'TREATED', note: '湿布' },
    });
    expect(confirm.statusCode).toBe(200);
    const s = (
      await snooze('ORGANIZATION_GENERAL', {
        uid: w.w2.uid,
        alertType: 'HEART_RATE',
        minutes: 120,
        reason: '検査中',
      })
    ).json<SnoozeView>();

    const res = await t.app.inject({
      url: `/v2/alert/handover?clientId=${w.orgA}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<HandoverResponse>();
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(8 * 3600_000);
    expect(body.open.alerts.map((a) => a.id)).toContain(openId);
    expect(body.open.alerts.map((a) => a.id)).not.toContain(confirmedId);
    expect(body.confirmed.alerts.find((a) => a.id === confirmedId)).toMatchObject({
      confirmReason: 'TREATED',
      confirmNote: '湿布',
      confirmedBy: { uid: w.users.ORGANIZATION_GENERAL.uid },
    });
    expect(body.snoozes.find((x) => x.id === s.id)).toMatchObject({
      reason: '検査中',
      createdBy: { uid: w.users.ORGANIZATION_GENERAL.uid },
      active: true,
    });

    // A manager of group 1 does not see group 2's wearer in it.
    const g1 = (
      await t.app.inject({ url: '/v2/alert/handover', headers: w.users.ORGANIZATION_GROUP.headers })
    ).json<HandoverResponse>();
    expect(g1.open.alerts.map((a) => a.id)).not.toContain(openId);
    expect(g1.snoozes.map((x) => x.id)).not.toContain(s.id);
  });

  it('role table and bad input: staff only; hours 1..24', async () => {
    const expected: Record<ActorName, number> = {
      ALL_OWNER: 200,
      ALL_GENERAL: 200,
      ORGANIZATION_OWNER: 200,
      ORGANIZATION_GENERAL: 200,
      ORGANIZATION_GROUP: 200,
      GROUP_MANAGER_OTHER_GROUP: 200,
      OTHER_ORG_OWNER: 200,
      PERSONAL_LINKED: 403,
      PERSONAL_UNLINKED: 403,
      PERSONAL_SELF: 403,
    };
    const got = Object.fromEntries(
      await Promise.all(
        ACTOR_NAMES.map(
          async (who) =>
            [
              who,
              (
                await t.app.inject({
                  url: '/v2/alert/handover?hours=12',
                  headers: w.users[who].headers,
                })
              ).statusCode,
            ] as const,
        ),
      ),
    );
    expect(got).toEqual(expected);
    // Another organisation's owner asking for organisation A sees nothing of it.
    const other = (
      await t.app.inject({
        url: `/v2/alert/handover?clientId=${w.orgA}`,
        headers: w.users.OTHER_ORG_OWNER.headers,
      })
    ).json<HandoverResponse>();
    expect([other.open.total, other.confirmed.total, other.snoozes.length]).toEqual([0, 0, 0]);
    for (const hours of ['0', '25', 'x']) {
      const res = await t.app.inject({
        url: `/v2/alert/handover?hours=${hours}`,
        headers: w.users.ORGANIZATION_OWNER.headers,
      });
      expect(res.statusCode, hours).toBe(400);
      expect(res.body).toContain('hours');
    }
  });
});
