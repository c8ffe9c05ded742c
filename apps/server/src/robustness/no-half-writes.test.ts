import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAlert } from '../testing/world.js';
import {
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Writes that fail part-way leave the database exactly as the API promises: the alert-settings bulk
 * change and the notice-settings replacement are all or nothing; batch confirm answers per id and
 * touches only the confirmable ones; a gateway batch stores its valid items and refuses the others.
 * Rows are compared before and after.
 */
let t: TestApp;
let orgId: string;
let groupId: string;
let owner: UserRecord;
let w1: WearerRecord;
let w2: WearerRecord;
let wOther: WearerRecord;

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrganization(t);
  const other = await createOrganization(t);
  orgId = org.id;
  groupId = (await createGroup(t, { organizationId: org.id })).id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  w1 = await createWearer(t, { organizationId: org.id, groupId });
  w2 = await createWearer(t, { organizationId: org.id, groupId });
  wOther = await createWearer(t, { organizationId: other.id });
});
afterAll(() => t?.close());

const settingsRows = (uids: string[]) =>
  t.db.query<{ wearer_id: string; settings: unknown; updated_at: Date }>(
    'SELECT wearer_id, settings, updated_at FROM wearer_alert_settings WHERE wearer_id = ANY($1) ORDER BY wearer_id',
    [uids],
  );

describe('PATCH /v2/client/{clientId}/users/alertSettings/bulk is all or nothing', () => {
  const bulk = (payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${orgId}/users/alertSettings/bulk`,
      headers: owner.headers,
      payload: payload as object,
    });

  it('changes nothing when one uid among good ones is unknown, of another organisation, or invalid', async () => {
    // w2 has stored settings, so a failing bulk change must leave them as they were.
    const first = await bulk({ uids: [w2.uid], settings: { heartRateUpper: 150 } });
    expect(first.statusCode, first.body).toBe(200);
    const before = await settingsRows([w1.uid, w2.uid, wOther.uid]);

    const bad = [
      { uids: [w1.uid, w2.uid, 'wr-does-not-exist'], settings: { heartRateLower: 60 } },
      { uids: [w1.uid, wOther.uid, w2.uid], settings: { heartRateLower: 60 } },
      { uids: [w1.uid, 'x'.repeat(65), w2.uid], settings: { heartRateLower: 60 } },
      { uids: [w1.uid, w2.uid], settings: { heartRateLower: 60, sustainedMinutes: -1 } },
      { uids: [w1.uid, w2.uid], settings: { heartRateLower: 60 }, extra: true },
      // Valid alone, but the merge with w2's stored upper bound (150) is not: lower must stay below upper.
      { uids: [w1.uid, w2.uid], settings: { heartRateLower: 180 } },
    ];
    for (const payload of bad) {
      const res = await bulk(payload);
      expect(res.statusCode, `${JSON.stringify(payload)} -> ${res.body}`).toBeGreaterThanOrEqual(
        400,
      );
      expect(res.statusCode, `${JSON.stringify(payload)} -> ${res.body}`).toBeLessThan(500);
      expect(await settingsRows([w1.uid, w2.uid, wOther.uid]), JSON.stringify(payload)).toEqual(
        before,
      );
    }
  });

  it('changes every wearer when all are good (the check above can fail)', async () => {
    const res = await bulk({ uids: [w1.uid, w2.uid], settings: { heartRateLower: 61 } });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await settingsRows([w1.uid, w2.uid]);
    expect(rows.map((r) => (r.settings as { heartRateLower?: number }).heartRateLower)).toEqual([
      61, 61,
    ]);
  });
});

describe('PUT /v2/group/{groupId}/alertNoticeSettings replaces the whole list or nothing', () => {
  const schedule = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
      d,
      { enabled: true, startTime: '00:00', endTime: '23:59' },
    ]),
  );
  const recipient = (extra: object, order = 1) => ({
    channel: 'SMS',
    alertTypes: ['SOS_CALL'],
    schedule,
    order,
    ...extra,
  });
  const noticeRows = () =>
    t.db.query('SELECT * FROM group_alert_notice_settings WHERE group_id = $1 ORDER BY position', [
      groupId,
    ]);
  const put = (recipients: unknown[]) =>
    t.app.inject({
      method: 'PUT',
      url: `/v2/group/${groupId}/alertNoticeSettings`,
      headers: owner.headers,
      payload: { recipients },
    });

  it('keeps the stored list when one recipient among good ones is bad', async () => {
    const ok = await put([
      recipient({ phoneNumber: '+819012345678' }),
      recipient({ userId: owner.uid }, 2),
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    const before = await noticeRows();
    expect(before).toHaveLength(2);
    const outsider = await createUser(t, {
      role: 'ORGANIZATION_OWNER',
      organizationId: wOther.organizationId,
    });
    const bads: unknown[][] = [
      [recipient({ phoneNumber: '+819011112222' }), recipient({ userId: outsider.uid }, 2)],
      [recipient({ phoneNumber: '+819011112222' }), recipient({ userId: 'usr-nope' }, 2)],
      [recipient({ phoneNumber: '+819011112222' }), recipient({ phoneNumber: '090-1234' }, 2)],
      [
        recipient({ phoneNumber: '+819011112222' }),
        recipient({ phoneNumber: '+819011112222', userId: owner.uid }, 2),
      ],
      [
        recipient({ phoneNumber: '+819011112222' }),
        recipient({ phoneNumber: '+819011112222' }, 11),
      ],
      [recipient({ phoneNumber: 'a\u0000b' })],
    ];
    for (const recipients of bads) {
      const res = await put(recipients);
      expect(res.statusCode, `${JSON.stringify(recipients)} -> ${res.body}`).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('body.recipients.');
      expect(await noticeRows(), JSON.stringify(recipients)).toEqual(before);
    }
  });
});

describe('POST /v2/alert/batchConfirm confirms exactly the confirmable ids', () => {
  const confirmedAt = async (ids: string[]) =>
    (
      await t.db.query<{ id: string; confirmed_at: Date | null; status: string }>(
        'SELECT id, confirmed_at, status FROM alerts WHERE id = ANY($1) ORDER BY id',
        [ids],
      )
    ).map((r) => ({ id: r.id, confirmed: r.confirmed_at !== null, status: r.status }));

  it('reports each id, confirms the open and the closed one, leaves foreign and unknown ones untouched', async () => {
    const open = await insertAlert(t.db, w1, { type: 'SOS_CALL' });
    const closed = await insertAlert(t.db, w2, { type: 'DETECT_FALL_DOWN', status: 'CLOSED' });
    const foreign = await insertAlert(t.db, wOther, { type: 'SOS_CALL' });
    const all = [open, closed, foreign];
    const before = await confirmedAt(all);
    expect(before.every((r) => !r.confirmed)).toBe(true);

    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/batchConfirm',
      headers: owner.headers,
      payload: { alertIds: [open, closed, foreign, 'al-does-not-exist', open] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ results: { alertId: string; result: string }[] }>().results).toEqual([
      { alertId: open, result: 'confirmed' },
      { alertId: closed, result: 'confirmed' },
      { alertId: foreign, result: 'not_found' },
      { alertId: 'al-does-not-exist', result: 'not_found' },
      { alertId: open, result: 'already_confirmed' },
    ]);
    const after = await confirmedAt(all);
    expect(after.find((r) => r.id === open)).toMatchObject({ confirmed: true, status: 'CLOSED' });
    expect(after.find((r) => r.id === closed)).toMatchObject({ confirmed: true, status: 'CLOSED' });
    expect(after.filter((r) => r.id === foreign)).toEqual(before.filter((r) => r.id === foreign));
  });

  it('confirms nothing when one id of the batch is malformed', async () => {
    const a = await insertAlert(t.db, w1, { type: 'HEART_RATE' });
    const b = await insertAlert(t.db, w2, { type: 'HEART_RATE' });
    for (const alertIds of [
      [a, 'x'.repeat(65), b],
      [a, 42, b],
      [a, '', b],
      [a, `${b}\u0000`],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/alert/batchConfirm',
        headers: owner.headers,
        payload: { alertIds },
      });
      expect(res.statusCode, `${JSON.stringify(alertIds)} -> ${res.body}`).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('body.alertIds.');
      expect(await confirmedAt([a, b])).toEqual(
        [a, b].sort().map((id) => ({ id, confirmed: false, status: 'OPEN' })),
      );
    }
  });
});

describe('POST /gateway/v1/batches stores the valid items and refuses the others', () => {
  const send = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: {
        authorization: `Gateway ${w1.gateway.id}:${w1.gateway.credential}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify(payload),
    });
  const stored = async () => {
    const q = (sql: string) => t.db.query<{ n: number }>(sql, [w1.bracelet.id, w1.gateway.id]);
    const [r, e, d] = await Promise.all([
      q('SELECT count(*)::int AS n FROM readings WHERE bracelet_id = $1 AND $2::text IS NOT NULL'),
      q(
        'SELECT count(*)::int AS n FROM environment_readings WHERE gateway_id = $2 AND $1::text IS NOT NULL',
      ),
      q(
        'SELECT count(*)::int AS n FROM device_events WHERE bracelet_id = $1 AND $2::text IS NOT NULL',
      ),
    ]);
    return { readings: r[0]?.n, environment: e[0]?.n, events: d[0]?.n };
  };
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

  it('keeps the valid readings of a batch with bad items, naming each refused one', async () => {
    const serial = w1.bracelet.serialNumber;
    const res = await send({
      batchId: 'robust-1',
      readings: [
        { serialNumber: serial, at: minutesAgo(10), heartRate: 72 },
        { serialNumber: serial, at: minutesAgo(9), heartRate: 300 },
        { serialNumber: `${serial}\u0000`, at: minutesAgo(8), heartRate: 70 },
        { serialNumber: 'BR-unknown', at: minutesAgo(7), heartRate: 70 },
        { serialNumber: wOther.bracelet.serialNumber, at: minutesAgo(7), heartRate: 70 },
        { serialNumber: serial, at: '2026-13-45T00:00:00Z', heartRate: 70 },
        { serialNumber: serial, at: 'yesterday' },
        'not an object',
        null,
        { serialNumber: serial, at: minutesAgo(6), heartRate: 'fast' },
        { serialNumber: serial, at: minutesAgo(5), heartRate: 75 },
        // ISO-valid but beyond timestamptz: these made the whole batch a 500.
        { serialNumber: serial, at: '0000-01-01T00:00:00Z', heartRate: 70 },
        { serialNumber: serial, at: '2026-01-01T00:00:00+23:59', heartRate: 70 },
      ],
      environment: [
        { at: minutesAgo(10), temperature: 30, humidity: 60, wbgt: 27 },
        { at: 'soon', temperature: 1e300 },
      ],
      events: [{ serialNumber: serial, type: 'EXPLODE', at: minutesAgo(4) }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<{
      accepted: number;
      rejected: { list: string; index: number; reason: string }[];
    }>();
    expect(result.accepted).toBe(3);
    const refused = result.rejected.map((r) => `${r.list}.${r.index}`).sort();
    expect(refused).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12]
        .map((i) => `readings.${i}`)
        .concat('environment.1', 'events.0')
        .sort(),
    );
    expect(result.rejected.find((r) => r.list === 'readings' && r.index === 2)?.reason).toContain(
      'NUL',
    );
    expect(await stored()).toEqual({ readings: 2, environment: 1, events: 0 });
  });

  it('stores nothing when the batch itself is malformed', async () => {
    const before = await stored();
    const serial = w1.bracelet.serialNumber;
    const good = { serialNumber: serial, at: minutesAgo(3), heartRate: 80 };
    const bads: unknown[] = [
      {
        readings: 'not a list',
        events: [{ serialNumber: serial, type: 'SOS', at: minutesAgo(3) }],
      },
      { readings: [good], environment: {} },
      { readings: [good], batchId: 'b'.repeat(129) },
      {
        readings: Array.from({ length: 5001 }, (_, i) => ({
          ...good,
          at: new Date(Date.now() - (i + 100) * 1000).toISOString(),
        })),
      },
      [good],
      null,
    ];
    for (const payload of bads) {
      const res = await send(payload);
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 200)} -> ${res.body}`).toBe(400);
      expect(await stored()).toEqual(before);
    }
  });
});
