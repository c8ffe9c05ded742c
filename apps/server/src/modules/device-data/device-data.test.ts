import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleepNightOf, summaryResponse, wearerSummary } from '@wearable/domain';
import {
  ACTOR_NAMES,
  type ActorName,
  type World,
  buildWorld,
  SEES,
  insertAlert,
} from '../../testing/world.js';
import { createWearer, type WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
let silent: WearerRecord;
let sosId: string;
const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000);

/** 30 one-minute readings through the real gateway endpoint: HR 60..89, worn, 10 steps each. */
async function ingest(wearer: WearerRecord, hrBase = 60) {
  const readings = Array.from({ length: 30 }, (_, i) => ({
    serialNumber: wearer.bracelet.serialNumber,
    at: new Date(start.getTime() + i * 60_000).toISOString(),
    heartRate: hrBase + i,
    skinTemperature: 33 + (i % 2),
    worn: true,
    steps: 10,
    sleepStage: 4,
    stressLevel: 'LOW',
    battery: 80,
  }));
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${wearer.gateway.id}:${wearer.gateway.credential}` },
    payload: { readings },
  });
  expect(res.json()).toMatchObject({ accepted: 30, rejected: [] });
}

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  await ingest(w.w1);
  await ingest(w.w2, 100);
  await ingest(w.wB);
  silent = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
  sosId = await insertAlert(t.db, w.w1, { type: 'SOS_CALL' });
});
afterAll(() => t.close());

const get = (who: ActorName, url: string) => t.app.inject({ url, headers: w.users[who].headers });

describe('GET /v3/device/summary', () => {
  it.each(ACTOR_NAMES)('%s sees exactly its wearers', async (who) => {
    const res = await get(who, '/v3/device/summary');
    expect(res.statusCode).toBe(200);
    const uids = new Set(res.json<{ wearers: { uid: string }[] }>().wearers.map((x) => x.uid));
    for (const k of ['w1', 'w2', 'wB'] as const)
      expect(uids.has(w[k].uid), `${who} / ${k}`).toBe(SEES[who].includes(k));
  });

  it('gives the latest values, connection and open alerts', async () => {
    const res = await get('ORGANIZATION_OWNER', `/v3/device/summary?groupId=${w.g1}`);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    // The database builds this JSON: it must still be exactly the contract.
    expect(summaryResponse.strict().safeParse(res.json()).error).toBeUndefined();
    const wearers = res.json<{ wearers: Record<string, unknown>[] }>().wearers;
    expect(wearers.map((x) => x.uid).sort()).toEqual([w.w1.uid, silent.uid].sort());
    expect(wearers.find((x) => x.uid === w.w1.uid)).toMatchObject({
      name: w.w1.name,
      clientId: w.orgA,
      groupId: w.g1,
      serialNumber: w.w1.bracelet.serialNumber,
      heartRate: 89,
      worn: true,
      battery: 80,
      connection: 'online',
      openAlerts: [{ id: sosId, type: 'SOS_CALL', level: 'EMERGENCY' }],
    });
    for (const x of wearers) expect(wearerSummary.strict().safeParse(x).error).toBeUndefined();
    expect(wearers.find((x) => x.uid === silent.uid)).toMatchObject({
      heartRate: null,
      connection: 'offline',
      lastSeenAt: null,
      openAlerts: [],
    });
  });

  it('platform staff narrow by clientId', async () => {
    const res = await get('ALL_GENERAL', `/v3/device/summary?clientId=${w.orgB}`);
    expect(res.json<{ wearers: { uid: string }[] }>().wearers.map((x) => x.uid)).toEqual([
      w.wB.uid,
    ]);
  });
});

describe('GET /v3/device/history', () => {
  const q = (uid: string, extra = '') =>
    `/v3/device/history?uid=${uid}&from=${encodeURIComponent(start.toISOString())}&to=${encodeURIComponent(new Date(start.getTime() + 30 * 60_000).toISOString())}${extra}`;

  it.each(ACTOR_NAMES)('%s: w1 history is 200 if visible, else 404', async (who) => {
    const res = await get(who, q(w.w1.uid));
    expect(res.statusCode).toBe(SEES[who].includes('w1') ? 200 : 404);
  });

  it('downsamples to about `points` buckets with averages', async () => {
    const res = await get('ORGANIZATION_OWNER', q(w.w1.uid, '&points=10'));
    const body = res.json();
    expect(body.points).toHaveLength(10);
    // Bucket of 3 minutes: HR 60, 61, 62 -> 61; steps 30.
    expect(body.points[0]).toMatchObject({
      at: start.toISOString(),
      heartRate: 61,
      steps: 30,
      worn: true,
      sleepStage: 4,
      stressLevel: 'LOW',
    });
    expect(body.points[0].coreTemperature).toBeGreaterThan(36);
  });

  it('returns only the metrics asked for', async () => {
    const res = await get('ORGANIZATION_OWNER', q(w.w1.uid, '&points=5&metrics=heartRate,steps'));
    expect(Object.keys(res.json<{ points: object[] }>().points[0] ?? {}).sort()).toEqual([
      'at',
      'heartRate',
      'heartRateMax',
      'heartRateMin',
      'steps',
    ]);
  });

  it.each([
    ['/v3/device/history?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z', 'querystring.uid'],
    [
      `/v3/device/history?uid=x&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`,
      'querystring.to',
    ],
    [
      `/v3/device/history?uid=x&from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
      'querystring.to',
    ],
    [`/v3/device/history?uid=x&from=nope&to=2026-01-01T00:00:00Z`, 'querystring.from'],
    [
      `/v3/device/history?uid=x&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&points=5001`,
      'querystring.points',
    ],
    [
      `/v3/device/history?uid=x&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&metrics=pulse`,
      'querystring.metrics',
    ],
  ])('%s is a 400 naming %s', async (url, field) => {
    const res = await get('ORGANIZATION_OWNER', url);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });
});

describe('GET /v2/device/monthlyReport', () => {
  const month = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
  })
    .format(start)
    .slice(0, 7);

  it.each(ACTOR_NAMES)('%s: w2 report is 200 if visible, else 404', async (who) => {
    const res = await get(who, `/v2/device/monthlyReport?uid=${w.w2.uid}&month=${month}`);
    expect(res.statusCode).toBe(SEES[who].includes('w2') ? 200 : 404);
  });

  it('sums the month per local day, with alert counts', async () => {
    const res = await get(
      'ORGANIZATION_OWNER',
      `/v2/device/monthlyReport?uid=${w.w1.uid}&month=${month}`,
    );
    const body = res.json<{
      timeZone: string;
      days: { steps: number }[];
      totals: { alerts: Record<string, number> };
    }>();
    expect(body.timeZone).toBe('Asia/Tokyo');
    // The current month runs to today in Tokyo (no rows for days to come).
    expect(body.days.length).toBe(
      Number(
        new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date()).slice(8),
      ),
    );
    expect(body.totals).toMatchObject({
      heartRate: { avg: 74.5, min: 60, max: 89 },
      steps: 300,
      wornMinutes: 30,
    });
    // Sleep counts on the night's date: on the 1st before noon that night belongs to the month before.
    if (sleepNightOf(start, 'Asia/Tokyo').slice(0, 7) === month)
      expect(body.totals).toMatchObject({ sleepMinutes: { AWAKE: 30, DEEP_SLEEP: 0 } });
    expect(body.totals.alerts.SOS_CALL).toBe(1);
    const measured = body.days.filter((d) => d.steps > 0);
    expect(measured.reduce((s, d) => s + d.steps, 0)).toBe(300);
  });

  it.each(['2026-13', '2026-1', 'june'])('month=%s is a 400 naming it', async (m) => {
    const res = await get(
      'ORGANIZATION_OWNER',
      `/v2/device/monthlyReport?uid=${w.w1.uid}&month=${m}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('querystring.month');
  });
});

describe('GET /v3/device/history: true extremes and the window asked for (issue 36)', () => {
  let wearer: WearerRecord;
  const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000);
  const dayFrom = new Date(minute.getTime() - 24 * 3_600_000 + 5 * 60_000);
  const dayTo = new Date(minute.getTime() + 5 * 60_000);

  beforeAll(async () => {
    wearer = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
    // The readings: five in one minute (its rollup keeps min 78, max 118), one a minute later.
    const hrs = [78, 82, 85, 104, 118];
    const readings = [
      ...hrs.map((heartRate, i) => ({
        serialNumber: wearer.bracelet.serialNumber,
        at: new Date(minute.getTime() + i * 10_000).toISOString(),
        heartRate,
        skinTemperature: 33 + i / 10,
        worn: true,
      })),
      {
        serialNumber: wearer.bracelet.serialNumber,
        at: new Date(minute.getTime() + 60_000).toISOString(),
        heartRate: 90,
        skinTemperature: 33,
        worn: true,
      },
    ];
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${wearer.gateway.id}:${wearer.gateway.credential}` },
      payload: { readings },
    });
    expect(res.json()).toMatchObject({ accepted: 6, rejected: [] });
  });

  const day = (points: number) =>
    get(
      'ORGANIZATION_OWNER',
      `/v3/device/history?uid=${wearer.uid}&from=${encodeURIComponent(dayFrom.toISOString())}&to=${encodeURIComponent(dayTo.toISOString())}&points=${points}`,
    );

  it("the window's minimum and maximum are the readings' own, not extremes of averages", async () => {
    // One bucket for the whole day: its average is 93.4ish, yet the day's max is 118.
    for (const points of [1, 24, 500]) {
      const body = (await day(points)).json();
      expect(body.summary.heartRate, `points=${points}`).toEqual({
        min: 78,
        avg: Math.round(((78 + 82 + 85 + 104 + 118 + 90) / 6) * 10) / 10,
        max: 118,
      });
      expect(body.summary.skinTemperature.max).toBeCloseTo(33.4, 5);
    }
  });

  it('each bucket carries its own minimum and maximum (the chart band)', async () => {
    const body = (await day(24 * 60)).json<{ points: Record<string, unknown>[] }>();
    const first = body.points.find((p) => p.heartRate !== null)!;
    expect(first).toMatchObject({ heartRateMin: 78, heartRateMax: 118 });
    for (const p of body.points)
      if (typeof p.heartRate === 'number') {
        expect(p.heartRateMin as number).toBeLessThanOrEqual(p.heartRate);
        expect(p.heartRateMax as number).toBeGreaterThanOrEqual(p.heartRate);
      }
  });

  it('answers the window asked for and the time zone its nights are dated in', async () => {
    const body = (await day(500)).json();
    expect(body.from).toBe(dayFrom.toISOString());
    expect(body.to).toBe(dayTo.toISOString());
    expect(body.timeZone).toBe('Asia/Tokyo');
  });
});
