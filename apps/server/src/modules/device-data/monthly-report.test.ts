import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTOR_NAMES,
  type ActorName,
  type World,
  buildWorld,
  insertAlert,
  SEES,
} from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
// The organisation's zone is Asia/Tokyo; the report's days are its local days.
const tokyoMonth = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo', year: 'numeric', month: '2-digit' })
    .format(at)
    .slice(0, 7);
const month = tokyoMonth(new Date());
const shift = (m: string, by: number) => {
  const [y, mm] = m.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, mm - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};
const previous = shift(month, -1);
const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  // 01:30 on the 1st in Tokyo is still the previous day in UTC: it belongs to this month's first day.
  await insertAlert(t.db, w.w1, {
    type: 'DETECT_FALL_DOWN',
    openedAt: new Date(`${month}-01T01:30:00+09:00`),
    status: 'CLOSED',
  });
  const readings = Array.from({ length: 3 }, (_, i) => ({
    serialNumber: w.w1.bracelet.serialNumber,
    at: new Date(start.getTime() + i * 60_000).toISOString(),
    heartRate: 70 + i,
    skinTemperature: 33,
    worn: true,
    steps: 5,
    stressLevel: 'HIGH',
  }));
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${w.w1.gateway.id}:${w.w1.gateway.credential}` },
    payload: { readings },
  });
  expect(res.json()).toMatchObject({ accepted: 3 });
});
afterAll(() => t.close());

const get = (who: ActorName, url: string) => t.app.inject({ url, headers: w.users[who].headers });
const report = (who: ActorName, query: string) => get(who, `/v2/device/monthlyReport?${query}`);
const csv = (who: ActorName, query: string) => get(who, `/v2/device/monthlyReportCsv?${query}`);

describe('monthly report: who may read it', () => {
  it.each(ACTOR_NAMES)('%s: w1 report and CSV are 200 if w1 is visible, else 404', async (who) => {
    const expected = SEES[who].includes('w1') ? 200 : 404;
    expect((await report(who, `uid=${w.w1.uid}&month=${month}`)).statusCode).toBe(expected);
    expect((await csv(who, `uid=${w.w1.uid}&month=${month}`)).statusCode).toBe(expected);
  });

  it("another organisation's wearer is 404, like an unknown one", async () => {
    expect((await report('ORGANIZATION_OWNER', `uid=${w.wB.uid}&month=${month}`)).statusCode).toBe(
      404,
    );
    expect((await csv('ORGANIZATION_OWNER', `uid=${w.wB.uid}&month=${month}`)).statusCode).toBe(
      404,
    );
    expect((await report('ORGANIZATION_OWNER', `uid=nobody&month=${month}`)).statusCode).toBe(404);
  });
});

describe('monthly report: bad input', () => {
  it.each([
    [`uid=W&month=${shift(month, 1)}`, 'querystring.month'],
    ['uid=W&month=9999-12', 'querystring.month'],
    ['uid=W&month=2026-13', 'querystring.month'],
    ['uid=W&month=2026-1', 'querystring.month'],
    ['uid=W&month=', 'querystring.month'],
    ['uid=W', 'querystring.month'],
    [`month=${month}`, 'querystring.uid'],
    [`uid=W&month=${month}&lng=fr`, 'querystring.lng'],
  ])('%s is a 400 naming %s', async (query, field) => {
    const q = query.replace('uid=W', `uid=${w.w1.uid}`);
    const res =
      field === 'querystring.lng'
        ? await csv('ORGANIZATION_OWNER', q)
        : await report('ORGANIZATION_OWNER', q);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    if (!field.endsWith('lng')) expect((await csv('ORGANIZATION_OWNER', q)).statusCode).toBe(400);
  });
});

describe('monthly report: content', () => {
  it("counts by the organisation's local day, names the wearer and gives stress hours", async () => {
    const body = (await report('ORGANIZATION_OWNER', `uid=${w.w1.uid}&month=${month}`)).json();
    expect(body).toMatchObject({
      uid: w.w1.uid,
      name: expect.any(String),
      month,
      timeZone: 'Asia/Tokyo',
    });
    expect(body.days[0]).toMatchObject({ date: `${month}-01` });
    expect(body.days[0].alerts.DETECT_FALL_DOWN).toBe(1);
    expect(body.totals.alerts.DETECT_FALL_DOWN).toBe(1);
    expect(body.totals.steps).toBe(15);
    expect(body.totals.stressHours.HIGH).toBeGreaterThanOrEqual(1);
    const before = (await report('ORGANIZATION_OWNER', `uid=${w.w1.uid}&month=${previous}`)).json<{
      days: { date: string }[];
      totals: { alerts: Record<string, number> };
    }>();
    expect(before.totals.alerts.DETECT_FALL_DOWN).toBe(0);
    expect(before.days.at(-1)!.date).toBe(
      `${previous}-${String(before.days.length).padStart(2, '0')}`,
    );
  });

  it('CSV: UTF-8 with BOM, CRLF, a header, a row per day and a total row (Japanese by default)', async () => {
    const res = await csv('ORGANIZATION_OWNER', `uid=${w.w1.uid}&month=${month}`);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="monthly-report-${w.w1.uid.replace(/[^A-Za-z0-9_-]/g, '_')}-${month}.csv"`,
    );
    const raw = res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.toString('utf8').slice(1);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
    const lines = text.trimEnd().split('\r\n');
    const days = (await report('ORGANIZATION_OWNER', `uid=${w.w1.uid}&month=${month}`)).json<{
      days: unknown[];
    }>().days.length;
    expect(lines).toHaveLength(days + 2);
    expect(lines[0]!.split(',').slice(0, 3)).toEqual([
      '日付',
      '平均心拍数(bpm)',
      '最低心拍数(bpm)',
    ]);
    expect(lines[0]).toContain('転倒検知');
    expect(lines[1]!.startsWith(`${month}-01,`)).toBe(true);
    expect(lines.at(-1)!.startsWith('合計,')).toBe(true);
    const en = await csv('ORGANIZATION_OWNER', `uid=${w.w1.uid}&month=${month}&lng=en`);
    expect(
      en.rawPayload
        .toString('utf8')
        .slice(1)
        .split('\r\n')[0]!
        .startsWith('Date,Mean heart rate (bpm)'),
    ).toBe(true);
  });
});

describe('monthly report: nights and today (issue 36)', () => {
  // The night that started the day before yesterday at 23:00 in Tokyo and ended at 01:00 yesterday: 120 minutes
  // of deep sleep, all in the past whatever the hour (a night ending today was partly in the future before 01:00
  // JST, and its readings refused: CI at 00:50 JST, 2 Dec).
  const tokyoDate = (at: Date) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(at);
  const today = tokyoDate(new Date());
  const dayBefore = (date: string) =>
    tokyoDate(new Date(Date.parse(`${date}T12:00:00+09:00`) - 86_400_000));
  const yesterday = dayBefore(today);
  const started = dayBefore(yesterday);
  const nightStart = new Date(`${started}T23:00:00+09:00`);

  beforeAll(async () => {
    const readings = Array.from({ length: 120 }, (_, i) => ({
      serialNumber: w.w2.bracelet.serialNumber,
      at: new Date(nightStart.getTime() + i * 60_000).toISOString(),
      heartRate: 55,
      worn: true,
      sleepStage: 1,
    }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${w.w2.gateway.id}:${w.w2.gateway.credential}` },
      payload: { readings },
    });
    expect(res.json()).toMatchObject({ accepted: 120 });
  });

  type Day = { date: string; sleepMinutes: Record<string, number> };
  const daysOf = async (m: string) =>
    (await report('ORGANIZATION_OWNER', `uid=${w.w2.uid}&month=${m}`)).json<{ days: Day[] }>().days;

  it('puts the whole night on the date it started (docs/sleep-nights.md)', async () => {
    const onStart = await daysOf(started.slice(0, 7));
    expect(onStart.find((d) => d.date === started)!.sleepMinutes.DEEP_SLEEP).toBe(120);
    const after = await daysOf(yesterday.slice(0, 7));
    expect(after.find((d) => d.date === yesterday)?.sleepMinutes.DEEP_SLEEP ?? 0).toBe(0);
  });

  it('the current month stops at today: no rows for days still to come', async () => {
    const days = await daysOf(month);
    expect(days.at(-1)!.date).toBe(today);
    expect(days).toHaveLength(Number(today.slice(8, 10)));
  });
});
