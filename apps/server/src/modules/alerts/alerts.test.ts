import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTOR_NAMES,
  type ActorName,
  type World,
  buildWorld,
  SEES,
  insertAlert,
} from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
let ids: { w1: string; w2: string; wB: string };
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  ids = {
    w1: await insertAlert(t.db, w.w1, { type: 'SOS_CALL' }),
    w2: await insertAlert(t.db, w.w2, { type: 'HEART_RATE', status: 'CLOSED' }),
    wB: await insertAlert(t.db, w.wB, { type: 'DETECT_FALL_DOWN' }),
  };
});
afterAll(() => t.close());

const get = (who: ActorName, url: string) => t.app.inject({ url, headers: w.users[who].headers });
const post = (who: ActorName, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, headers: w.users[who].headers });

describe('GET /v2/alert/list, role by role', () => {
  it.each(ACTOR_NAMES)('%s sees exactly its alerts', async (who) => {
    const res = await get(who, '/v2/alert/list?pageSize=200');
    expect(res.statusCode).toBe(200);
    const seen = new Set(res.json<{ alerts: { id: string }[] }>().alerts.map((a) => a.id));
    for (const k of ['w1', 'w2', 'wB'] as const)
      expect(seen.has(ids[k]), `${who} / ${k}`).toBe(SEES[who].includes(k));
  });

  it('without a token is 401', async () => {
    expect((await t.app.inject({ url: '/v2/alert/list' })).statusCode).toBe(401);
  });

  it('returns the alert with wearer, group, cause and paging', async () => {
    const res = await get('ORGANIZATION_OWNER', `/v2/alert/list?uid=${w.w1.uid}`);
    const body = res.json();
    expect(body).toMatchObject({ total: 1, page: 1, pageSize: 50 });
    expect(body.alerts[0]).toMatchObject({
      id: ids.w1,
      type: 'SOS_CALL',
      level: 'EMERGENCY',
      status: 'OPEN',
      wearer: { uid: w.w1.uid, name: w.w1.name },
      groupId: w.g1,
      clientId: w.orgA,
      confirmedBy: null,
      notified: true,
      cause: { rule: 'test', values: { heartRate: 190 } },
    });
  });

  it('filters by type (several), level, status, notConfirmed, group and organisation', async () => {
    const list = async (q: string) =>
      (await get('ALL_OWNER', `/v2/alert/list?clientId=${w.orgA}&${q}`))
        .json<{ alerts: { id: string }[] }>()
        .alerts.map((a) => a.id)
        .sort();
    expect(await list('type=SOS_CALL&type=HEART_RATE')).toEqual([ids.w1, ids.w2].sort());
    expect(await list('type=HEART_RATE,DETECT_FALL_DOWN')).toEqual([ids.w2]);
    expect(await list('level=EMERGENCY')).toEqual([ids.w1]);
    expect(await list('status=CLOSED')).toEqual([ids.w2]);
    expect(await list(`groupId=${w.g2}`)).toEqual([ids.w2]);
    expect(await list('notConfirmed=true')).toEqual([ids.w1, ids.w2].sort());
    expect(
      await list(`from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`),
    ).toEqual([]);
  });

  it('a clientId of another organisation gives nothing to organisation staff', async () => {
    const res = await get('ORGANIZATION_OWNER', `/v2/alert/list?clientId=${w.orgB}`);
    expect(res.json().alerts).toEqual([]);
  });

  it.each([
    ['type=NOPE', 'querystring.type'],
    ['level=LOUD', 'querystring.level'],
    ['pageSize=201', 'querystring.pageSize'],
    ['page=0', 'querystring.page'],
    ['from=yesterday', 'querystring.from'],
    ['notConfirmed=maybe', 'querystring.notConfirmed'],
    [`from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`, 'querystring.to'],
  ])('bad query %s is a 400 naming %s', async (q, field) => {
    const res = await get('ORGANIZATION_OWNER', `/v2/alert/list?${q}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });
});

/** What confirming w1's alert gives each caller. */
const CONFIRM: Record<ActorName, number> = {
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

describe('POST /v2/alert/confirm and batchConfirm', () => {
  it.each(ACTOR_NAMES)('%s confirming an alert of w1', async (who) => {
    const alertId = await insertAlert(t.db, w.w1, { type: 'HEART_RATE' });
    const res = await post(who, '/v2/alert/confirm', { alertId });
    expect(res.statusCode).toBe(CONFIRM[who]);
    const [row] = await t.db.query<{ confirmed_by: string | null; status: string }>(
      'SELECT confirmed_by, status FROM alerts WHERE id = $1',
      [alertId],
    );
    if (CONFIRM[who] === 200) {
      expect(res.json()).toEqual({ alertId, result: 'confirmed' });
      expect(row).toEqual({ confirmed_by: w.users[who].uid, status: 'CLOSED' });
    } else {
      expect(row).toEqual({ confirmed_by: null, status: 'OPEN' });
    }
    await t.db.query(
      "UPDATE alerts SET status = 'CLOSED', closed_at = now(), close_reason = 'recovered' WHERE id = $1 AND status = 'OPEN'",
      [alertId],
    );
  });

  it('batchConfirm reports each id; an invisible id is not_found and stays open', async () => {
    const mine = await insertAlert(t.db, w.w1, { type: 'NON_WEARING' });
    const done = await insertAlert(t.db, w.w1, { type: 'DISCONNECTION' });
    await post('ORGANIZATION_OWNER', '/v2/alert/confirm', { alertId: done });
    const theirs = await insertAlert(t.db, w.wB, { type: 'NON_WEARING' });
    const res = await post('ORGANIZATION_GROUP', '/v2/alert/batchConfirm', {
      alertIds: [mine, done, theirs, 'al-missing', mine],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toEqual([
      { alertId: mine, result: 'confirmed' },
      { alertId: done, result: 'already_confirmed' },
      { alertId: theirs, result: 'not_found' },
      { alertId: 'al-missing', result: 'not_found' },
      { alertId: mine, result: 'already_confirmed' },
    ]);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM alerts WHERE id = $1', [
      theirs,
    ]);
    expect(row?.status).toBe('OPEN');
  });

  it('a recovered alert can be confirmed too (and stays closed as recovered)', async () => {
    const alertId = await insertAlert(t.db, w.w2, { type: 'HEART_RATE', status: 'CLOSED' });
    const res = await post('ORGANIZATION_OWNER', '/v2/alert/batchConfirm', { alertIds: [alertId] });
    expect(res.json().results).toEqual([{ alertId, result: 'confirmed' }]);
  });

  it.each([
    [{}, 'body.alertIds'],
    [{ alertIds: [] }, 'body.alertIds'],
    [{ alertIds: Array.from({ length: 1001 }, (_, i) => `a${i}`) }, 'body.alertIds'],
    [{ alertIds: [''] }, 'body.alertIds.0'],
  ])('bad batch %# is a 400 naming %s', async (payload, field) => {
    const res = await post('ORGANIZATION_OWNER', '/v2/alert/batchConfirm', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('confirm without alertId is a 400 naming it', async () => {
    const res = await post('ORGANIZATION_OWNER', '/v2/alert/confirm', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('body.alertId');
  });
});
