import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NIGHT_ALERTS_CSV_COLUMNS,
  type NightRoundSheet,
  type RoundMarkView,
  sleepNightOf,
} from '@wearable/domain';
import {
  ACTOR_NAMES,
  type ActorName,
  buildWorld,
  insertAlert,
  type World,
} from '../../testing/world.js';
import { createWearer, type WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
let sleeper: WearerRecord;
let walker: WearerRecord;
let offWrist: WearerRecord;
let unheard: WearerRecord;
let criticalAlertId: string;

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

/** One reading a minute from `from` to `to` minutes ago. */
async function readings(
  wearer: WearerRecord,
  from: number,
  to: number,
  values: { sleepStage?: number; worn?: boolean; steps?: number },
) {
  const items = [];
  for (let n = from; n >= to; n--)
    items.push({
      serialNumber: wearer.bracelet.serialNumber,
      at: minutesAgo(n).toISOString(),
      heartRate: 62,
      worn: values.worn ?? true,
      ...(values.sleepStage ? { sleepStage: values.sleepStage } : {}),
      ...(values.steps ? { steps: values.steps } : {}),
    });
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${wearer.gateway.id}:${wearer.gateway.credential}` },
    payload: { readings: items },
  });
  expect(res.json()).toMatchObject({ accepted: items.length, rejected: [] });
}

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  const inG1 = (name: string) =>
    createWearer(t, { organizationId: w.orgA, groupId: w.g1, name, gateway: w.w1.gateway });
  sleeper = await inG1('青木 眠子');
  walker = await inG1('加藤 歩');
  offWrist = await inG1('佐藤 外子');
  unheard = await inG1('田中 無音');
  await readings(sleeper, 40, 31, { sleepStage: 4 });
  await readings(sleeper, 30, 1, { sleepStage: 2 });
  await readings(walker, 20, 6, { sleepStage: 2 });
  await readings(walker, 5, 1, { sleepStage: 4, steps: 20 });
  await readings(offWrist, 10, 1, { worn: false });
  await readings(w.w1, 10, 1, { sleepStage: 1 });
  criticalAlertId = await insertAlert(t.db, w.w1, {
    type: 'HEART_RATE_ANOMALY_SUSTAINED',
    openedAt: minutesAgo(3),
  });
});
afterAll(() => t.close());

const sheetUrl = (groupId = w.g1, query = '') => `/v2/group/${groupId}/nightRound${query}`;
const get = (who: ActorName, url: string) =>
  t.app.inject({ method: 'GET', url, headers: w.users[who].headers });
const mark = (who: ActorName, payload: object, groupId = w.g1) =>
  t.app.inject({
    method: 'POST',
    url: `/v2/group/${groupId}/nightRound/marks`,
    headers: w.users[who].headers,
    payload,
  });

describe('the round sheet of a group', () => {
  it('lists every resident in the order a round visits them, with state, since and heart rate', async () => {
    const res = await get('ORGANIZATION_GENERAL', sheetUrl());
    expect(res.statusCode).toBe(200);
    const sheet = res.json<NightRoundSheet>();
    expect(sheet.night).toBe(sleepNightOf(new Date(), sheet.timeZone));
    const rows = sheet.wearers.map((r) => [r.uid, r.state]);
    // The open CRITICAL alert first, then never heard, not worn, up, asleep.
    expect(rows).toEqual([
      [w.w1.uid, 'ASLEEP'],
      [unheard.uid, 'NOT_HEARD'],
      [offWrist.uid, 'NOT_WORN'],
      [walker.uid, 'UP'],
      [sleeper.uid, 'ASLEEP'],
    ]);
    const first = sheet.wearers[0]!;
    expect(first.lastAlert).toMatchObject({
      id: criticalAlertId,
      level: 'CRITICAL',
      status: 'OPEN',
    });
    expect(first.openAlertLevels).toEqual(['CRITICAL']);
    const asleep = sheet.wearers.find((r) => r.uid === sleeper.uid)!;
    expect(asleep.heartRate).toBe(62);
    // Asleep since the first minute of sleep, 30 minutes ago (its minute's start).
    expect(Date.parse(asleep.since!)).toBeGreaterThan(minutesAgo(32).getTime());
    expect(Date.parse(asleep.since!)).toBeLessThan(minutesAgo(29).getTime());
    expect(sheet.wearers.find((r) => r.uid === unheard.uid)!.since).toBeNull();
  });

  // Who may open the sheet: staff who reach the group (as its /devices); the rest as the access service decides.
  const SHEET: Record<ActorName, number> = {
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
  it.each(ACTOR_NAMES)('%s: sheet, mark and CSV of group g1', async (who) => {
    const expected = SHEET[who];
    expect((await get(who, sheetUrl())).statusCode).toBe(expected);
    expect((await get(who, `/v2/group/${w.g1}/nightRoundCsv`)).statusCode).toBe(expected);
    const marked = await mark(who, { uid: sleeper.uid });
    expect(marked.statusCode).toBe(expected === 200 ? 201 : expected);
  });

  it('is 404 for an unknown group', async () => {
    const res = await get('ALL_OWNER', sheetUrl('no-such-group'));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'GROUP_NOT_FOUND' });
  });
});

describe('marking a resident as looked at', () => {
  it('records who and when on the night under way; the sheet of that night shows it, another night not', async () => {
    const before = Date.now();
    const res = await mark('ORGANIZATION_GROUP', { uid: walker.uid, note: ' トイレ誘導 ' });
    expect(res.statusCode).toBe(201);
    const saved = res.json<RoundMarkView>();
    expect(saved).toMatchObject({
      uid: walker.uid,
      by: { uid: w.users.ORGANIZATION_GROUP.uid, name: w.users.ORGANIZATION_GROUP.name },
      note: 'トイレ誘導',
    });
    expect(Date.parse(saved.at)).toBeGreaterThanOrEqual(before - 1000);
    const sheet = (await get('ORGANIZATION_OWNER', sheetUrl())).json<NightRoundSheet>();
    expect(saved.night).toBe(sheet.night);
    const row = sheet.wearers.find((r) => r.uid === walker.uid)!;
    expect(row.marks[0]).toEqual(saved);
    const old = (
      await get('ORGANIZATION_OWNER', sheetUrl(w.g1, '?night=2020-01-01'))
    ).json<NightRoundSheet>();
    expect(old.night).toBe('2020-01-01');
    expect(old.wearers.every((r) => r.marks.length === 0)).toBe(true);
  });

  it("refuses a resident of another group or organisation as not found: they are not on this group's sheet", async () => {
    for (const uid of [w.w2.uid, w.wB.uid, 'nobody']) {
      const res = await mark('ORGANIZATION_OWNER', { uid });
      expect(res.statusCode, uid).toBe(404);
      expect(res.json().code).toBe('WEARER_NOT_FOUND');
    }
  });

  it.each([
    ['no resident', {}],
    ['an empty resident', { uid: '' }],
    ['a note over 500 characters', { uid: 'x', note: 'あ'.repeat(501) }],
    ['an unknown field', { uid: 'x', who: 'me' }],
    ['a note that is not text', { uid: 'x', note: 5 }],
  ])('refuses %s with 400 and a message', async (_, payload) => {
    const res = await mark('ORGANIZATION_OWNER', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/\S/);
  });

  it.each(['2026-13-01', '2026-02-30', 'yesterday', '0000-01-01'])(
    'refuses the night %s with 400',
    async (night) => {
      const res = await get('ORGANIZATION_OWNER', sheetUrl(w.g1, `?night=${night}`));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/night/);
      const csv = await get('ORGANIZATION_OWNER', `/v2/group/${w.g1}/nightRoundCsv?night=${night}`);
      expect(csv.statusCode).toBe(400);
    },
  );
});

describe("the night's alerts as CSV", () => {
  it('has the documented header, ISO times with the offset, who confirmed, reason, note and minutes', async () => {
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: w.users.ORGANIZATION_GENERAL.headers,
      payload: { alertId: criticalAlertId, reason: 'CHECKED_ON_SITE', note: '訪室, 異常なし' },
    });
    expect(confirmed.json()).toMatchObject({ result: 'confirmed' });
    const otherGroup = await insertAlert(t.db, w.w2, { openedAt: minutesAgo(2) });
    const res = await get('ORGANIZATION_OWNER', `/v2/group/${w.g1}/nightRoundCsv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toMatch(/night-round-\d{4}-\d{2}-\d{2}\.csv/);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toBe(NIGHT_ALERTS_CSV_COLUMNS.join(','));
    expect(res.body).not.toContain(otherGroup);
    const line = lines.find((l) => l.startsWith(criticalAlertId))!;
    expect(line).toContain(`,${w.w1.uid},`);
    expect(line).toContain(',HEART_RATE_ANOMALY_SUSTAINED,CRITICAL,CLOSED,');
    expect(line).toMatch(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00,/);
    expect(line).toContain(
      `,${w.users.ORGANIZATION_GENERAL.name},CHECKED_ON_SITE,"訪室, 異常なし",3,`,
    );
  });

  it('is only the header for a night without alerts', async () => {
    const res = await get('ORGANIZATION_OWNER', `/v2/group/${w.g1}/nightRoundCsv?night=2020-01-01`);
    expect(res.body).toBe(`\uFEFF${NIGHT_ALERTS_CSV_COLUMNS.join(',')}\r\n`);
  });
});
