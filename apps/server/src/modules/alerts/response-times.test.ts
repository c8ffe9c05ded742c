import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseTimesResponse } from '@wearable/domain';
import type { WearerRecord } from '../../testing/factories.js';
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

/** Migration 018's backfill of alerts.first_notice_at / first_delivery_at from the notifications. */
const BACKFILL = /^UPDATE alerts [\s\S]*?;$/m.exec(
  readFileSync(new URL('../../db/migrations/018_alert_first_notice.sql', import.meta.url), 'utf8'),
)![0];

/**
 * An alert that happened at `at`, raised by the server then (or `raised` seconds later: its data came late); its
 * first notice sent / delivered and its confirmation so many seconds after `at`.
 */
async function scripted(
  wearer: WearerRecord,
  type: 'SOS_CALL' | 'HEART_RATE',
  at: string,
  s: { raised?: number; sent?: number; delivered?: number; confirmed?: number },
) {
  const openedAt = new Date(at);
  const after = (sec?: number) =>
    sec === undefined ? null : new Date(openedAt.getTime() + sec * 1000);
  const id = await insertAlert(t.db, wearer, {
    type,
    openedAt,
    raisedAt: after(s.raised ?? 0)!,
    status: 'CLOSED',
  });
  if (s.sent !== undefined) {
    // Two attempts: the figures take the first sent and the first delivered.
    for (const [n, extra] of [
      [1, 0],
      [2, 5],
    ] as const) {
      await t.db.query(
        `INSERT INTO notifications (id, organization_id, alert_id, step, channel, recipient, provider, status, text,
                                    created_at, updated_at, sent_at, delivered_at)
         VALUES ($1, $2, $3, 1, 'SMS', '+819012345678', 'embedded', $4, 'x', $5, $5, $5, $6)`,
        [
          `n-${n}-${id}`,
          wearer.organizationId,
          id,
          s.delivered === undefined ? 'sent' : 'delivered',
          after(s.sent + extra),
          s.delivered === undefined ? null : after(s.delivered + extra),
        ],
      );
    }
  }
  if (s.confirmed !== undefined) {
    await t.db.query('UPDATE alerts SET confirmed_at = $2, confirmed_by = $3 WHERE id = $1', [
      id,
      after(s.confirmed),
      w.users.ORGANIZATION_OWNER.uid,
    ]);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  // September (Tokyo): three SOS, two in group 1 (w1), one in group 2 (w2); October: one heart-rate alert in group 1.
  await scripted(w.w1, 'SOS_CALL', '2026-09-10T00:00:00Z', {
    sent: 10,
    delivered: 20,
    confirmed: 60,
  });
  await scripted(w.w1, 'SOS_CALL', '2026-09-11T00:00:00Z', {
    sent: 30,
    delivered: 50,
    confirmed: 180,
  });
  await scripted(w.w2, 'SOS_CALL', '2026-09-12T00:00:00Z', { sent: 20 });
  await scripted(w.w1, 'HEART_RATE', '2026-10-05T00:00:00Z', { confirmed: 600 });
  // November: an SOS a gateway uploaded 30 minutes late; notified 10 s and confirmed 60 s after it arrived.
  await scripted(w.w2, 'SOS_CALL', '2026-11-05T00:00:00Z', {
    raised: 1800,
    sent: 1810,
    confirmed: 1860,
  });
  // Outside the period, and another organisation's.
  await scripted(w.w1, 'SOS_CALL', '2026-08-31T14:59:00Z', { confirmed: 1 });
  await scripted(w.wB, 'SOS_CALL', '2026-09-10T00:00:00Z', { confirmed: 1 });
  // The notices were written straight into the table, as before migration 018: its backfill gives the alerts
  // their first notice and delivery, so the figures below (unchanged since they were read from the
  // notifications) check it too.
  await t.db.exec(BACKFILL);
});
afterAll(() => t.close());

const get = (who: ActorName, query: string, path = '/v2/alert/responseTimes') =>
  t.app.inject({ url: `${path}?${query}`, headers: w.users[who].headers });
const period = () => `clientId=${w.orgA}&from=2026-09&to=2026-10`;
const row = (r: ResponseTimesResponse, month: string | null, type: string | null) =>
  r.rows.find((x) => x.month === month && x.type === type);

/** Who reads organisation A's figures, and how many of its alerts in the period they count. */
const ACCESS: Record<ActorName, { status: number; alerts?: number; g1: number }> = {
  ALL_OWNER: { status: 200, alerts: 4, g1: 200 },
  ALL_GENERAL: { status: 200, alerts: 4, g1: 200 },
  ORGANIZATION_OWNER: { status: 200, alerts: 4, g1: 200 },
  ORGANIZATION_GENERAL: { status: 200, alerts: 4, g1: 200 },
  // A group manager counts the alerts of their own groups.
  ORGANIZATION_GROUP: { status: 200, alerts: 3, g1: 200 },
  GROUP_MANAGER_OTHER_GROUP: { status: 200, alerts: 1, g1: 404 },
  OTHER_ORG_OWNER: { status: 404, g1: 404 },
  PERSONAL_LINKED: { status: 403, g1: 403 },
  PERSONAL_UNLINKED: { status: 403, g1: 403 },
  PERSONAL_SELF: { status: 403, g1: 403 },
};

describe('GET /v2/alert/responseTimes: role table', () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const res = await get(who, period());
    expect(res.statusCode).toBe(ACCESS[who].status);
    if (res.statusCode === 200)
      expect(row(res.json(), null, null)?.alerts).toBe(ACCESS[who].alerts);
    expect((await get(who, `${period()}&groupId=${w.g1}`)).statusCode).toBe(ACCESS[who].g1);
    expect((await get(who, period(), '/v2/alert/responseTimesCsv')).statusCode).toBe(
      ACCESS[who].status,
    );
  });
});

describe('GET /v2/alert/responseTimes: figures', () => {
  it('median and p90 (percentile_cont) per month and type, with totals', async () => {
    const res = await get('ORGANIZATION_OWNER', period());
    expect(res.statusCode).toBe(200);
    const r = res.json<ResponseTimesResponse>();
    expect(r).toMatchObject({
      clientId: w.orgA,
      groupId: null,
      timeZone: 'Asia/Tokyo',
      from: '2026-09',
      to: '2026-10',
    });
    // Sent after 10, 30, 20 s; delivered after 20, 50 s (the third never); confirmed after 60, 180 s.
    expect(row(r, '2026-09', 'SOS_CALL')).toEqual({
      month: '2026-09',
      type: 'SOS_CALL',
      alerts: 3,
      toNotice: { count: 3, medianSeconds: 20, p90Seconds: 28 },
      toDelivery: { count: 2, medianSeconds: 35, p90Seconds: 47 },
      toConfirm: { count: 2, medianSeconds: 120, p90Seconds: 168 },
    });
    expect(row(r, '2026-10', 'HEART_RATE')).toMatchObject({
      alerts: 1,
      toNotice: { count: 0, medianSeconds: null, p90Seconds: null },
      toConfirm: { count: 1, medianSeconds: 600, p90Seconds: 600 },
    });
    expect(row(r, '2026-10', null)?.alerts).toBe(1);
    expect(row(r, null, 'SOS_CALL')?.alerts).toBe(3);
    expect(row(r, null, null)).toMatchObject({
      alerts: 4,
      toConfirm: { count: 3, medianSeconds: 180 },
    });
    // Rows: months in order (the whole period last), all types first within each.
    expect(r.rows.map((x) => `${x.month}/${x.type}`)).toEqual([
      '2026-09/null',
      '2026-09/SOS_CALL',
      '2026-10/null',
      '2026-10/HEART_RATE',
      'null/null',
      'null/HEART_RATE',
      'null/SOS_CALL',
    ]);
  });

  it('an alert from data that came late is timed from when the server raised it, in the month it happened', async () => {
    const r = (
      await get('ORGANIZATION_OWNER', `clientId=${w.orgA}&from=2026-11&to=2026-11`)
    ).json<ResponseTimesResponse>();
    expect(row(r, '2026-11', 'SOS_CALL')).toEqual({
      month: '2026-11',
      type: 'SOS_CALL',
      alerts: 1,
      toNotice: { count: 1, medianSeconds: 10, p90Seconds: 10 },
      toDelivery: { count: 0, medianSeconds: null, p90Seconds: null },
      toConfirm: { count: 1, medianSeconds: 60, p90Seconds: 60 },
    });
  });

  it('one group: the alerts raised in it', async () => {
    const r = (
      await get('ORGANIZATION_OWNER', `${period()}&groupId=${w.g2}`)
    ).json<ResponseTimesResponse>();
    expect(r.groupId).toBe(w.g2);
    expect(row(r, null, null)).toMatchObject({
      alerts: 1,
      toNotice: { count: 1, medianSeconds: 20 },
      toDelivery: { count: 0 },
    });
  });

  it('one wearer: their alerts only (the monthly report of a wearer)', async () => {
    const r = (
      await get('ORGANIZATION_OWNER', `${period()}&uid=${w.w1.uid}`)
    ).json<ResponseTimesResponse>();
    expect(r).toMatchObject({ uid: w.w1.uid, groupId: null });
    expect(row(r, null, null)?.alerts).toBe(3);
    expect(row(r, '2026-09', 'SOS_CALL')).toMatchObject({
      alerts: 2,
      toNotice: { count: 2, medianSeconds: 20 },
    });
    // Who may read the wearer's figures: as for the organisation's, narrowed to who sees the wearer.
    const status = async (who: ActorName) =>
      (await get(who, `${period()}&uid=${w.w1.uid}`)).statusCode;
    expect(await status('ORGANIZATION_GROUP')).toBe(ACCESS.ORGANIZATION_GROUP.g1);
    expect(await status('GROUP_MANAGER_OTHER_GROUP')).toBe(404);
    expect(await status('OTHER_ORG_OWNER')).toBe(404);
    expect(await status('PERSONAL_LINKED')).toBe(403);
  });

  it('defaults to the 12 months up to this one', async () => {
    const r = (await get('ORGANIZATION_OWNER', `clientId=${w.orgA}`)).json<ResponseTimesResponse>();
    const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5));
    expect(index(r.to) - index(r.from)).toBe(11);
  });

  it('as CSV: UTF-8 with BOM, in the panel’s words', async () => {
    const res = await get('ORGANIZATION_OWNER', `${period()}&lng=ja`, '/v2/alert/responseTimesCsv');
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('response-times-2026-09-2026-10.csv');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFF月,種別,件数,通知まで 中央値(秒),通知まで 90%(秒),配信まで 中央値(秒),配信まで 90%(秒),確認まで 中央値(秒),確認まで 90%(秒)',
    );
    expect(lines).toContain('2026-09,SOS発信,3,20,28,35,47,120,168');
    expect(lines).toContain('全期間,すべての種別,4,20,28,35,47,180,516');
    const en = await get('ORGANIZATION_OWNER', `${period()}&lng=en`, '/v2/alert/responseTimesCsv');
    expect(en.body.split('\r\n')).toContain('2026-09,SOS call,3,20,28,35,47,120,168');
  });
});

describe('GET /v2/alert/responseTimes: bad input', () => {
  it.each([
    ['', 'querystring.clientId'],
    [`clientId=${'x'.repeat(65)}`, 'querystring.clientId'],
    ['from=2026-13', 'querystring.from'],
    ['to=26-01', 'querystring.to'],
    ['from=2026-10&to=2026-09', 'querystring.to'],
    ['from=2024-01&to=2026-01', 'querystring.to'],
    ['lng=fr', 'querystring.lng'],
    [`uid=${'u'.repeat(65)}`, 'querystring.uid'],
  ])('%j is a 400 naming %s', async (query, field) => {
    const q = query.startsWith('clientId') || query === '' ? query : `clientId=${w.orgA}&${query}`;
    const res = await get('ALL_OWNER', q);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('a group of another organisation is a 400 naming querystring.groupId (platform staff) or 404 (who cannot see it)', async () => {
    const gB = (
      await t.db.query<{ group_id: string }>('SELECT group_id FROM users WHERE id = $1', [w.wB.uid])
    )[0]!.group_id;
    const res = await get('ALL_OWNER', `${period()}&groupId=${gB}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('querystring.groupId');
    expect((await get('ORGANIZATION_OWNER', `${period()}&groupId=${gB}`)).statusCode).toBe(404);
    expect((await get('ORGANIZATION_OWNER', `clientId=org-nope`)).statusCode).toBe(404);
  });

  it('a wearer of another organisation is a 400 naming querystring.uid (platform staff) or 404 (who cannot see them)', async () => {
    const res = await get('ALL_OWNER', `${period()}&uid=${w.wB.uid}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('querystring.uid');
    expect((await get('ORGANIZATION_OWNER', `${period()}&uid=${w.wB.uid}`)).statusCode).toBe(404);
    expect((await get('ORGANIZATION_OWNER', `${period()}&uid=nobody`)).statusCode).toBe(404);
  });
});
