import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE, type HeatProcedureBody } from '@wearable/domain';
import {
  ACTOR_NAMES,
  type ActorName,
  type World,
  buildWorld,
  insertAlert,
} from '../../testing/world.js';
import { createGateway, createGroup, createWearer } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { embeddedProvider } from '../notifications/notification-provider.js';
import { notificationsService } from '../notifications/notifications.service.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const PROCEDURE: HeatProcedureBody = {
  stopWork: '職長が作業を中止させ、日陰の休憩所へ移す',
  coolBody: '首・脇・足の付け根を保冷剤で冷やし、水分と塩分をとらせる',
  medicalCare: '意識がおかしい、自分で水が飲めないときは119番',
  emergencyContacts: '現場代理人 090-0000-0000、安全衛生担当 03-0000-0000',
  hospital: { name: '中央総合病院', address: '東京都中央区1-2-3', phone: '03-1234-5678' },
};

const url = (groupId = w.g1) => `/v2/group/${groupId}/heatProcedure`;
const call = (who: ActorName, method: 'GET' | 'PUT', payload?: object, groupId?: string) =>
  t.app.inject({
    method,
    url: url(groupId),
    headers: w.users[who].headers,
    ...(payload ? { payload } : {}),
  });
const stored = async (groupId = w.g1) =>
  (
    await t.db.query<{ stop_work: string }>(
      'SELECT stop_work FROM group_heat_procedures WHERE group_id = $1',
      [groupId],
    )
  )[0]?.stop_work;

/** g1's heat procedure: staff who see the group read it; owners and g1's manager write it. */
const ACCESS: Record<ActorName, { get: number; put: number; report: number }> = {
  ALL_OWNER: { get: 200, put: 200, report: 200 },
  ALL_GENERAL: { get: 200, put: 403, report: 200 },
  ORGANIZATION_OWNER: { get: 200, put: 200, report: 200 },
  ORGANIZATION_GENERAL: { get: 200, put: 403, report: 200 },
  ORGANIZATION_GROUP: { get: 200, put: 200, report: 200 },
  GROUP_MANAGER_OTHER_GROUP: { get: 404, put: 404, report: 404 },
  OTHER_ORG_OWNER: { get: 404, put: 404, report: 404 },
  PERSONAL_LINKED: { get: 403, put: 403, report: 403 },
  PERSONAL_UNLINKED: { get: 403, put: 403, report: 403 },
  PERSONAL_SELF: { get: 403, put: 403, report: 403 },
};

describe('a site’s heat procedure: role table', () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    expect((await call(who, 'GET')).statusCode).toBe(ACCESS[who].get);
    const mine = { ...PROCEDURE, stopWork: `中止 (${who})` };
    const res = await call(who, 'PUT', mine);
    expect(res.statusCode).toBe(ACCESS[who].put);
    if (ACCESS[who].put === 200) expect(await stored()).toBe(mine.stopWork);
    else expect(await stored()).not.toBe(mine.stopWork);
    const report = await t.app.inject({
      url: `/v2/group/${w.g1}/heatRuleReport?month=2026-08`,
      headers: w.users[who].headers,
    });
    expect(report.statusCode).toBe(ACCESS[who].report);
    const csv = await t.app.inject({
      url: `/v2/group/${w.g1}/heatRuleReportCsv?month=2026-08`,
      headers: w.users[who].headers,
    });
    expect(csv.statusCode).toBe(ACCESS[who].report);
  });
});

describe('a site’s heat procedure', () => {
  it('is null until written; saving returns it with the named contacts and records the change in the audit log', async () => {
    const group = await createGroup(t, { organizationId: w.orgA });
    const first = await call('ORGANIZATION_OWNER', 'GET', undefined, group.id);
    expect(first.json()).toMatchObject({
      groupId: group.id,
      procedure: null,
      updatedAt: null,
      updatedBy: null,
      contacts: [],
    });

    // The group's notice recipients of heat alerts are the named contacts; an SOS-only recipient is not.
    const owner = w.users.ORGANIZATION_OWNER;
    const notice = await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${group.id}/alertNoticeSettings`,
      headers: owner.headers,
      payload: {
        recipients: [
          {
            userId: owner.uid,
            channel: 'PHONE_CALL',
            alertTypes: ['HEATSTROKE', 'SOS_CALL'],
            schedule: DEFAULT_SCHEDULE,
            order: 1,
          },
          {
            phoneNumber: '+819011112222',
            channel: 'SMS',
            alertTypes: ['ADVANCED_HEATSTROKE'],
            schedule: DEFAULT_SCHEDULE,
            order: 2,
          },
          {
            phoneNumber: '+819033334444',
            channel: 'SMS',
            alertTypes: ['SOS_CALL'],
            schedule: DEFAULT_SCHEDULE,
            order: 1,
          },
        ],
      },
    });
    expect(notice.statusCode).toBe(200);

    const saved = await call('ORGANIZATION_OWNER', 'PUT', PROCEDURE, group.id);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      procedure: PROCEDURE,
      updatedBy: { uid: owner.uid },
      contacts: [
        { name: owner.name, channel: 'PHONE_CALL', order: 1 },
        { name: null, phoneNumber: '+819011112222', channel: 'SMS', order: 2 },
      ],
    });
    expect(saved.json().contacts).toHaveLength(2);

    const changed = { ...PROCEDURE, hospital: { ...PROCEDURE.hospital, phone: '+81312345678' } };
    expect((await call('ORGANIZATION_OWNER', 'PUT', changed, group.id)).statusCode).toBe(200);
    const audit = await t.app.inject({
      url: `/v2/audit?clientId=${w.orgA}&kind=heatProcedure.update`,
      headers: owner.headers,
    });
    const entries = audit
      .json<{ entries: { targetId: string }[] }>()
      .entries.filter((e: { targetId: string }) => e.targetId === group.id);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ before: PROCEDURE, after: changed });
    expect(entries[1]).toMatchObject({ before: null, after: PROCEDURE });
  });

  it.each([
    ['body.stopWork', { ...PROCEDURE, stopWork: '   ' }],
    ['body.coolBody', { ...PROCEDURE, coolBody: 'x'.repeat(1001) }],
    ['body.medicalCare', { ...PROCEDURE, medicalCare: 'a\u0000b' }],
    ['body.emergencyContacts', { ...PROCEDURE, emergencyContacts: 'a\uD800b' }],
    [
      'body.hospital.phone',
      { ...PROCEDURE, hospital: { ...PROCEDURE.hospital, phone: 'call us' } },
    ],
    ['body.hospital.name', { ...PROCEDURE, hospital: { ...PROCEDURE.hospital, name: '' } }],
    ['body.hospital.address', { ...PROCEDURE, hospital: { name: 'x', phone: '03-1234-5678' } }],
    ['body', { ...PROCEDURE, extra: 1 }],
    ['body.stopWork', {}],
  ])('bad body: a 400 naming %s, nothing changed', async (field, payload) => {
    const before = await stored();
    const res = await call('ORGANIZATION_OWNER', 'PUT', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect(await stored()).toBe(before);
  });

  it('an unknown group is 404', async () => {
    expect((await call('ALL_OWNER', 'GET', undefined, 'grp-nope')).statusCode).toBe(404);
    expect((await call('ALL_OWNER', 'PUT', PROCEDURE, 'grp-nope')).statusCode).toBe(404);
  });

  it.each(['2026-13', '2026-8', 'august', ''])(
    'report month %j is a 400 naming querystring.month',
    async (month) => {
      const res = await t.app.inject({
        url: `/v2/group/${w.g1}/heatRuleReport?month=${month}`,
        headers: w.users.ALL_OWNER.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('querystring.month');
    },
  );

  it('report without a month or with a bad language is a 400', async () => {
    const none = await t.app.inject({
      url: `/v2/group/${w.g1}/heatRuleReport`,
      headers: w.users.ALL_OWNER.headers,
    });
    expect(none.json().message).toContain('querystring.month');
    const lng = await t.app.inject({
      url: `/v2/group/${w.g1}/heatRuleReportCsv?month=2026-08&lng=fr`,
      headers: w.users.ALL_OWNER.headers,
    });
    expect(lng.statusCode).toBe(400);
    expect(lng.json().message).toContain('querystring.lng');
  });
});

describe('the monthly heat-rule report on a scripted day (2026-08-03, Tokyo)', () => {
  // 00:00 JST on 2026-08-03 is 15:00 UTC on 08-02.
  const local = (hhmm: string) => {
    const [h, m] = hhmm.split(':').map(Number);
    return new Date(Date.UTC(2026, 7, 2, 15) + (h! * 60 + m!) * 60_000);
  };
  let groupId: string;
  let heatstroke: string;

  beforeAll(async () => {
    const group = await createGroup(t, { organizationId: w.orgA });
    groupId = group.id;
    const gateway = await createGateway(t, { organizationId: w.orgA, groupId });
    const wearer = await createWearer(t, { organizationId: w.orgA, groupId, gateway });
    const env = async (hhmm: string, wbgt: number, temperature: number) =>
      t.db.query(
        'INSERT INTO environment_readings (gateway_id, at, organization_id, temperature, humidity, wbgt) VALUES ($1, $2, $3, $4, 60, $5)',
        [gateway.id, local(hhmm), w.orgA, temperature, wbgt],
      );
    // Every 10 minutes (a reading stands until the next): 08:00-10:00 mild; 10:00-11:30 WBGT 29 (a stretch
    // of 90 minutes); 11:30-13:00 mild; 13:00-13:30 air 32 C (30 minutes); then mild until 17:00.
    for (let m = 8 * 60; m < 17 * 60; m += 10) {
      const hhmm = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      const hot = m >= 600 && m < 690 ? [29, 30] : m >= 780 && m < 810 ? [26, 32] : [25, 29];
      await env(hhmm, hot[0]!, hot[1]!);
    }
    // A cool day later in the month, and one hot reading in July (outside the month).
    const other = (at: string, wbgt: number, temperature: number) =>
      t.db.query(
        'INSERT INTO environment_readings (gateway_id, at, organization_id, temperature, humidity, wbgt) VALUES ($1, $2, $3, $4, 60, $5)',
        [gateway.id, new Date(at), w.orgA, temperature, wbgt],
      );
    await other('2026-08-20T03:00:00Z', 24, 27);
    await other('2026-07-31T03:00:00Z', 33, 35);

    heatstroke = await insertAlert(t.db, wearer, {
      type: 'HEATSTROKE',
      openedAt: local('10:30'),
      status: 'CLOSED',
    });
    await insertAlert(t.db, wearer, {
      type: 'ADVANCED_HEATSTROKE_RISK',
      openedAt: local('13:10'),
      status: 'CLOSED',
    });
    const sos = await insertAlert(t.db, wearer, {
      type: 'SOS_CALL',
      openedAt: local('11:00'),
      status: 'CLOSED',
    });
    await insertAlert(t.db, w.w2, {
      type: 'HEATSTROKE',
      openedAt: local('10:30'),
      status: 'CLOSED',
    });
    await t.db.query(
      `INSERT INTO notifications (id, organization_id, alert_id, step, channel, recipient, provider, status, text,
                                  created_at, updated_at, sent_at, delivered_at)
       VALUES ($1, $2, $3, 1, 'SMS', '+819012345678', 'embedded', 'delivered', 'x', $4, $4, $4, $4)`,
      [`n-${heatstroke}`, w.orgA, heatstroke, new Date(local('10:30').getTime() + 5000)],
    );
    // Staff confirm both through the API with the steps taken; the SOS too (steps ignored: not a heat alert).
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/batchConfirm',
      headers: w.users.ORGANIZATION_GENERAL.headers,
      payload: {
        alertIds: [heatstroke, sos],
        reason: 'TREATED',
        procedureSteps: ['COOL_BODY', 'STOP_WORK', 'COOL_BODY'],
      },
    });
    expect(
      confirm
        .json<{ results: { result: string }[] }>()
        .results.map((r: { result: string }) => r.result),
    ).toEqual(['confirmed', 'confirmed']);
    // The scripted confirmation time: two minutes after it was raised.
    await t.db.query(
      `UPDATE alerts SET confirmed_at = opened_at + interval '120 seconds' WHERE id = $1`,
      [heatstroke],
    );
    const [steps] = await t.db.query<{ procedure_steps: string[] | null }>(
      'SELECT procedure_steps FROM alerts WHERE id = $1',
      [sos],
    );
    expect(steps?.procedure_steps).toBeNull();
  });

  it('marks the applicable hours, counts the heat alerts, the time to respond and the steps taken', async () => {
    const res = await t.app.inject({
      url: `/v2/group/${groupId}/heatRuleReport?month=2026-08`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({
      month: '2026-08',
      timeZone: 'Asia/Tokyo',
      applicableHours: 3,
      applicableDays: 1,
    });
    expect(r.gatewayCount).toBe(1);
    expect(r.days).toHaveLength(31);
    expect(r.days[0]).toMatchObject({
      date: '2026-08-01',
      applicableHours: [],
      hotMinutes: 0,
      maxWbgt: null,
    });
    // The stretch makes the day applicable; the afternoon's 50 hot minutes are then applicable work too.
    expect(r.days[2]).toEqual({
      date: '2026-08-03',
      applicableHours: [10, 11, 13],
      hotMinutes: 120,
      longestStretchMinutes: 90,
      maxWbgt: 29,
      maxTemperature: 32,
      heatAlerts: 2,
    });
    expect((r.alerts as { type: string }[]).map((a) => a.type)).toEqual([
      'HEATSTROKE',
      'ADVANCED_HEATSTROKE_RISK',
    ]);
    expect(r.alerts[0]).toMatchObject({
      id: heatstroke,
      secondsToNotice: 5,
      secondsToConfirm: 120,
      confirmReason: 'TREATED',
      confirmedBy: w.users.ORGANIZATION_GENERAL.name,
      procedureSteps: ['STOP_WORK', 'COOL_BODY'],
    });
    expect(r.alerts[1]).toMatchObject({
      secondsToNotice: null,
      secondsToConfirm: null,
      procedureSteps: [],
    });
    expect(r.summary).toEqual({
      heatAlerts: 2,
      confirmed: 1,
      medianSecondsToConfirm: 120,
      p90SecondsToConfirm: 120,
      steps: { STOP_WORK: 1, COOL_BODY: 1, MEDICAL_CARE: 0, EMERGENCY_CONTACT: 0 },
    });
  });

  it('the alert list shows the steps taken on the heat alert', async () => {
    const res = await t.app.inject({
      url: `/v2/alert/list?groupId=${groupId}&type=HEATSTROKE`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    const alert = res
      .json<{ alerts: { id: string; procedureSteps: string[] }[] }>()
      .alerts.find((a) => a.id === heatstroke)!;
    expect(alert.procedureSteps).toEqual(['STOP_WORK', 'COOL_BODY']);
  });

  it('as CSV: UTF-8 with BOM, in the screen’s words', async () => {
    const res = await t.app.inject({
      url: `/v2/group/${groupId}/heatRuleReportCsv?month=2026-08&lng=ja`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.startsWith('\uFEFF暑熱作業報告')).toBe(true);
    expect(res.body).toContain('該当作業時間(時間),3');
    expect(res.body).toContain('2026-08-03,10:00-12:00 13:00-14:00,120,90,29,32,2');
    expect(res.body).toContain('2026/08/03 10:30,熱中症,');
    expect(res.body).toContain('作業の中止 / 身体の冷却');
    const en = await t.app.inject({
      url: `/v2/group/${groupId}/heatRuleReportCsv?month=2026-08&lng=en`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(en.body).toContain('Applicable work (hours),3');
  });
});

describe('the SMS of a heat alert', () => {
  it('carries the site’s nearest hospital once the site has a procedure; other alerts do not', async () => {
    const group = await createGroup(t, { organizationId: w.orgA });
    const wearer = await createWearer(t, { organizationId: w.orgA, groupId: group.id });
    const owner = w.users.ORGANIZATION_OWNER;
    await t.app.inject({
      method: 'PUT',
      url: `/v2/group/${group.id}/alertNoticeSettings`,
      headers: owner.headers,
      payload: {
        recipients: [
          {
            phoneNumber: '+819055556666',
            channel: 'SMS',
            alertTypes: ['HEATSTROKE', 'HEART_RATE'],
            schedule: DEFAULT_SCHEDULE,
            order: 1,
          },
        ],
      },
    });
    const notices = notificationsService(t.ctx, embeddedProvider);
    const textOf = async (alertId: string) =>
      (
        await t.db.query<{ text: string }>('SELECT text FROM notifications WHERE alert_id = $1', [
          alertId,
        ])
      )[0]?.text;

    const before = await insertAlert(t.db, wearer, { type: 'HEATSTROKE' });
    await notices.alertOpened(before);
    expect(await textOf(before)).not.toContain('病院');

    expect((await call('ORGANIZATION_OWNER', 'PUT', PROCEDURE, group.id)).statusCode).toBe(200);
    const heat = await insertAlert(t.db, wearer, { type: 'HEATSTROKE', status: 'CLOSED' });
    await notices.alertOpened(heat);
    expect(await textOf(heat)).toMatch(
      /^【重大】.+さん: 熱中症 \(.+\) \d\d:\d\d 作業中止・身体冷却。.+病院: 中央総合病院 03-1234-5678 https?:\/\/\S+\/a\/\w+$/,
    );
    const other = await insertAlert(t.db, wearer, { type: 'HEART_RATE', status: 'CLOSED' });
    await notices.alertOpened(other);
    expect(await textOf(other)).not.toContain('病院');
  });
});
