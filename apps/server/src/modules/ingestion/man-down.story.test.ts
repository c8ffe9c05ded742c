import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE } from '@wearable/domain';
import {
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type GatewayRecord,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { smsTo } from '../../testing/mail-outbox.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Issue 16, man-down, told through the real app: a building site's owner turns man-down on for the
 * organisation (5 minutes) where the other alert settings are; the lone worker's phone learns it at
 * enrolment and with every batch result; after 5 still minutes and an unanswered countdown the phone
 * sends FALL with its cause; the alert opens as a fall (EMERGENCY) whose cause says "no movement for
 * 5 min", and so does the SMS. A FALL whose cause is out of range or of an unknown kind is kept without
 * it (the person still gets help), with a warning naming the field.
 */
let t: TestApp;
let owner: UserRecord;
let phone: GatewayRecord;
let stationary: GatewayRecord;
let worker: WearerRecord;
let organizationId: string;
const OWNER_PHONE = `+8190${randomInt(10_000_000, 99_999_999)}`;

beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://console.example.jp' });
  const org = await createOrganization(t);
  organizationId = org.id;
  const group = await createGroup(t, { organizationId, name: '第一現場' });
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId });
  await t.db.query('UPDATE users SET phone_number = $2 WHERE id = $1', [owner.uid, OWNER_PHONE]);
  phone = await createGateway(t, { organizationId, groupId: group.id, type: 'SMARTPHONE' });
  stationary = await createGateway(t, { organizationId, groupId: group.id });
  worker = await createWearer(t, {
    organizationId,
    groupId: group.id,
    name: '田中 一郎',
    gateway: phone,
  });
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${group.id}/alertNoticeSettings`,
    headers: owner.headers,
    payload: {
      recipients: [
        {
          userId: owner.uid,
          channel: 'SMS',
          alertTypes: ['DETECT_FALL_DOWN'],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t?.close());

const send = (gateway: { id: string; credential: string }, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
    payload,
  });
const policy = (method: 'GET' | 'PATCH', payload?: object) =>
  t.app.inject({
    method,
    url: `/v2/organization/${organizationId}/alertPolicy`,
    headers: owner.headers,
    ...(payload ? { payload } : {}),
  });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const fall = (at: string, cause: unknown) => ({
  serialNumber: worker.bracelet.serialNumber,
  type: 'FALL',
  at,
  cause,
});
const eventsAt = async (at: string) =>
  t.db.query<{ type: string; cause: unknown }>(
    'SELECT type, cause FROM device_events WHERE wearer_id = $1 AND at = $2',
    [worker.uid, at],
  );

describe('man-down from a phone gateway (issue 16)', () => {
  it('is off for the organisation until an owner turns it on, audited; the phone is told', async () => {
    const before = await policy('GET');
    expect(before.json()).toMatchObject({
      policy: { manDownMinutes: 0 },
      defaults: { manDownMinutes: 0 },
    });
    const off = await send(phone, { batchId: 'md-0' });
    expect(off.json()).toMatchObject({ gatewaySettings: { manDownMinutes: 0 } });

    const bad = await policy('PATCH', { manDownMinutes: 61 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('manDownMinutes must be at most 60 minutes');
    expect(bad.json().issues[0].path).toBe('body.manDownMinutes');

    const on = await policy('PATCH', { manDownMinutes: 5 });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().policy.manDownMinutes).toBe(5);
    const audit = await t.db.query<{ before: { manDownMinutes: number }; after: unknown }>(
      `SELECT before, after FROM audit_log WHERE organization_id = $1 AND kind = 'alertPolicy.update'`,
      [organizationId],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.before.manDownMinutes).toBe(0);
    expect(audit[0]!.after).toMatchObject({ manDownMinutes: 5 });

    // The phone's next result carries it (this server dropped its cached policy); a stationary
    // gateway's result does not (it has nothing to do with it).
    expect((await send(phone, { batchId: 'md-1' })).json()).toMatchObject({
      gatewaySettings: { manDownMinutes: 5 },
    });
    expect((await send(stationary, { batchId: 'md-2' })).json()).not.toHaveProperty(
      'gatewaySettings',
    );
  });

  it('a phone enrolled now learns the setting in its enrolment answer', async () => {
    const code = await t.app.inject({
      method: 'POST',
      url: `/v2/gateway/${phone.id}/enrolment`,
      headers: owner.headers,
      payload: { wearerId: null },
    });
    expect(code.statusCode, code.body).toBe(201);
    const enrolled = await t.app.inject({
      method: 'POST',
      url: '/v2/phone/enrol',
      payload: { code: code.json().code },
      remoteAddress: `10.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`,
    });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    expect(enrolled.json().settings).toEqual({ manDownMinutes: 5, emergencyPhone: null });
    // Enrolling issued a fresh credential: the phone sends with it from now on.
    phone = { ...phone, credential: enrolled.json().credential };
  });

  it('a man-down FALL opens the fall alert with its cause, and the SMS names it', async () => {
    const at = ago(2000);
    const res = await send(phone, {
      batchId: 'md-3',
      events: [fall(at, { trigger: 'man-down', stillMinutes: 5 })],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [] });
    expect(await eventsAt(at)).toEqual([
      { type: 'FALL', cause: { trigger: 'man-down', stillMinutes: 5 } },
    ]);

    const list = await t.app.inject({
      url: `/v2/alert/list?uid=${worker.uid}`,
      headers: owner.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().alerts).toHaveLength(1);
    expect(list.json().alerts[0]).toMatchObject({
      type: 'DETECT_FALL_DOWN',
      level: 'EMERGENCY',
      status: 'OPEN',
      cause: {
        rule: 'man-down',
        values: { event: 'FALL', trigger: 'man-down', stillMinutes: 5 },
      },
    });

    const [sms] = await smsTo(t.ctx, OWNER_PHONE);
    // Issue 36 item 4: the compact SMS of one segment says it too, "転倒(静止5分)" (the name, then the
    // unnamed gateway's "Gateway <id>", cut to fit the 70 characters).
    expect(sms).toMatch(
      /^【緊急】田中…さん 転倒\(静止5分\) \d\d:\d\d Gateway… https:\S+\/a\/\w{7}$/m,
    );
  });

  it('keeps a FALL or SOS whose cause is wrong, without the cause, and warns naming the field', async () => {
    const other = await createWearer(t, { organizationId, gateway: phone });
    const [a, b, c, d] = [ago(1500), ago(1400), ago(1300), ago(1200)];
    const mine = (at: string, cause: unknown) => ({
      ...fall(at, cause),
      serialNumber: other.bracelet.serialNumber,
    });
    const res = await send(phone, {
      batchId: 'md-4',
      events: [
        mine(a, { trigger: 'man-down', stillMinutes: 61 }),
        mine(b, { trigger: 'lying-down', stillMinutes: 5 }),
        mine(c, { trigger: 'man-down' }),
        {
          serialNumber: other.bracelet.serialNumber,
          type: 'SOS',
          at: d,
          cause: { trigger: 'impact' },
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      accepted: 4,
      rejected: [],
      warnings: [
        {
          list: 'events',
          index: 0,
          reason: 'cause.stillMinutes: must be at most 60 minutes; stored without cause',
        },
        {
          list: 'events',
          index: 1,
          reason: "cause.trigger: must be one of 'impact', 'man-down'; stored without cause",
        },
        {
          list: 'events',
          index: 2,
          reason:
            "cause.stillMinutes: is required when trigger is 'man-down'; stored without cause",
        },
        {
          list: 'events',
          index: 3,
          reason: 'cause: is only for FALL events; stored without cause',
        },
      ],
    });
    const stored = await t.db.query<{ type: string; cause: unknown }>(
      'SELECT type, cause FROM device_events WHERE wearer_id = $1 ORDER BY at',
      [other.uid],
    );
    expect(stored).toEqual([
      { type: 'FALL', cause: null },
      { type: 'FALL', cause: null },
      { type: 'FALL', cause: null },
      { type: 'SOS', cause: null },
    ]);
    // The person is still helped: the fall and the SOS open their alerts.
    const alerts = await t.db.query<{ type: string }>(
      'SELECT DISTINCT type FROM alerts WHERE wearer_id = $1 ORDER BY type',
      [other.uid],
    );
    expect(alerts.map((r) => r.type)).toEqual(['DETECT_FALL_DOWN', 'SOS_CALL']);
    // Anything else wrong with the event still refuses it.
    const bad = await send(phone, {
      events: [{ ...mine(ago(1100), { trigger: 'nope' }), at: 'yesterday' }],
    });
    expect(bad.json()).toMatchObject({ accepted: 0, rejected: [{ list: 'events', index: 0 }] });
    expect(bad.json().warnings).toBeUndefined();
  });

  it('an impact FALL keeps its usual cause, saying the trigger', async () => {
    const other = await createWearer(t, { organizationId, gateway: phone });
    const res = await send(phone, {
      events: [
        {
          serialNumber: other.bracelet.serialNumber,
          type: 'FALL',
          at: ago(1000),
          cause: { trigger: 'impact' },
        },
      ],
    });
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [] });
    const [alert] = await t.db.query<{ type: string; level: string; cause: unknown }>(
      'SELECT type, level, cause FROM alerts WHERE wearer_id = $1',
      [other.uid],
    );
    expect(alert).toMatchObject({
      type: 'DETECT_FALL_DOWN',
      level: 'EMERGENCY',
      cause: { rule: 'fall-detected', values: { event: 'FALL', trigger: 'impact' } },
    });
  });
});
