import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Actor,
  decodeSummaryColumns,
  summaryColumnsResponse,
  type SummaryColumnsResponse,
  summaryResponse,
  type SummaryResponse,
} from '@wearable/domain';
import type { AlertRecord } from '../../bus/events.js';
import { ACTOR_NAMES, type World, buildWorld, insertAlert } from '../../testing/world.js';
import type { WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { postBatch } from '../../testing/gateway-batch.js';
import { toAlertView } from '../alerts/alerts.service.js';
import { alertsRepository } from '../alerts/alerts.repository.js';
import { actorRepository } from '../auth/actor.repository.js';
import { alertRowFromMemory } from '../live/alert-payload.js';
import { deviceDataService } from './device-data.service.js';
import { SummarySnapshots } from './summary-snapshot.js';

// A short rebuild interval and a hard limit far away: freshness below comes from the bus events.
let t: TestApp;
let w: World;
const log = { error: () => undefined };

const post = (wearer: WearerRecord, payload: object) => postBatch(t, wearer.gateway, payload);
const reading = (wearer: WearerRecord, heartRate: number) => ({
  readings: [
    {
      serialNumber: wearer.bracelet.serialNumber,
      at: new Date().toISOString(),
      heartRate,
      worn: true,
      battery: 70,
    },
  ],
});

async function actorOf(accessToken: string): Promise<Actor> {
  const claims = await t.ctx.tokens.verifyAccessToken(accessToken);
  const actor =
    claims &&
    (await actorRepository(t.db).findSessionActor(claims.uid, claims.sessionId, new Date()));
  if (!actor) throw new Error('no actor');
  return actor;
}

/** GETs the summary until `ok` holds; fails after `limitMs`. */
async function summaryUntil(headers: object, ok: (s: SummaryResponse) => boolean, limitMs = 5000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const s = (
      await t.app.inject({ url: '/v3/device/summary', headers: headers as Record<string, string> })
    ).json<SummaryResponse>();
    if (ok(s)) return s;
    if (Date.now() > deadline)
      throw new Error(`summary never matched: ${JSON.stringify(s).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  t = await createTestApp({ summarySnapshotMs: 50, summaryMaxStaleMs: 60_000 });
  w = await buildWorld(t);
  for (const [wearer, hr] of [
    [w.w1, 61],
    [w.w2, 62],
    [w.wB, 63],
  ] as const) {
    expect((await post(wearer, reading(wearer, hr))).json()).toMatchObject({ accepted: 1 });
  }
  await insertAlert(t.db, w.w1, { type: 'SOS_CALL' });
});
afterAll(() => t?.close());

describe('summary snapshot', () => {
  it('answers exactly what the SQL answer gives, for every role and filter', async () => {
    const filters: { groupId?: string; clientId?: string }[] = [
      {},
      { groupId: w.g1 },
      { groupId: w.g2 },
      { clientId: w.orgA },
      { clientId: w.orgB },
    ];
    for (const who of ACTOR_NAMES) {
      const user = w.users[who];
      const actor = await actorOf(user.accessToken);
      for (const f of filters) {
        const qs = new URLSearchParams(f as Record<string, string>).toString();
        const res = await t.app.inject({ url: `/v3/device/summary?${qs}`, headers: user.headers });
        expect(res.statusCode, `${who} ${qs}`).toBe(200);
        const body = res.json<SummaryResponse>();
        expect(summaryResponse.strict().safeParse(body).error).toBeUndefined();
        const sql = JSON.parse(
          await deviceDataService(t.ctx).summaryFromDatabase(actor, {
            organizationId: f.clientId,
            groupId: f.groupId,
          }),
        ) as SummaryResponse;
        // Platform staff see every organisation, and on a shared PostgreSQL database other test
        // files write theirs meanwhile through their own apps (whose events never mark this app's
        // snapshot dirty): compare this file's organisations, which only this file changes.
        const ours = (s: SummaryResponse) =>
          s.wearers.filter((x) => x.clientId === w.orgA || x.clientId === w.orgB);
        expect(ours(body), `${who} ${qs}`).toEqual(ours(sql));
        // The columns form: the same wearers, in the same order, with the same values (and the bracelet's name).
        const compact = await t.app.inject({
          url: `/v3/device/summary?${qs}${qs ? '&' : ''}format=columns`,
          headers: user.headers,
        });
        expect(compact.statusCode, `${who} ${qs} columns`).toBe(200);
        const columns = compact.json<SummaryColumnsResponse>();
        expect(summaryColumnsResponse.strict().safeParse(columns).error).toBeUndefined();
        const decoded = decodeSummaryColumns(columns);
        expect(decoded.map(({ deviceName: _, ...rest }) => rest)).toEqual(body.wearers);
        for (const d of decoded.filter((x) => x.clientId === w.orgA || x.clientId === w.orgB)) {
          const bracelet = [w.w1, w.w2, w.wB].find((x) => x.uid === d.uid)?.bracelet;
          expect(d.deviceName, d.uid).toBe(bracelet?.deviceName ?? null);
        }
      }
    }
    // The table is not vacuous: the group manager sees w1 only, the unlinked personal user nobody.
    const only = async (who: (typeof ACTOR_NAMES)[number]) =>
      (await t.app.inject({ url: '/v3/device/summary', headers: w.users[who].headers }))
        .json<SummaryResponse>()
        .wearers.map((x) => x.uid);
    expect(await only('ORGANIZATION_GROUP')).toEqual([w.w1.uid]);
    expect(await only('PERSONAL_LINKED')).toEqual([w.w1.uid]);
    expect(await only('PERSONAL_UNLINKED')).toEqual([]);
    expect((await only('OTHER_ORG_OWNER')).sort()).toEqual([w.wB.uid]);
  });

  it('reflects a new reading and a new alert after the rebuild interval (bus events mark it dirty)', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    await summaryUntil(owner, (s) => s.wearers.some((x) => x.uid === w.w2.uid));
    expect((await post(w.w2, reading(w.w2, 123))).json()).toMatchObject({ accepted: 1 });
    const s1 = await summaryUntil(
      owner,
      (s) => s.wearers.find((x) => x.uid === w.w2.uid)?.heartRate === 123,
    );
    expect(s1.wearers.find((x) => x.uid === w.w2.uid)?.battery).toBe(70);
    const sos = {
      events: [
        { serialNumber: w.w2.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
      ],
    };
    expect((await post(w.w2, sos)).json()).toMatchObject({ accepted: 1 });
    await summaryUntil(
      owner,
      (s) =>
        !!s.wearers.find((x) => x.uid === w.w2.uid)?.openAlerts.some((a) => a.type === 'SOS_CALL'),
    );
  });

  it('reads only the wearers an event names (a reading, an SOS), not the whole scope', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    await summaryUntil(owner, () => true);
    const { wholeReads, patches } = t.ctx.summaries.counts;
    expect((await post(w.w2, reading(w.w2, 97))).json()).toMatchObject({ accepted: 1 });
    await summaryUntil(owner, (s) => s.wearers.find((x) => x.uid === w.w2.uid)?.heartRate === 97);
    expect(t.ctx.summaries.counts.wholeReads).toBe(wholeReads);
    expect(t.ctx.summaries.counts.patches).toBeGreaterThan(patches);
  });

  it('holds every change announced before a settled request, even within SUMMARY_SNAPSHOT_MS (the console when its live stream opens)', async () => {
    // A window no test outlasts: a plain request answers from the snapshot it finds.
    const snapshots = new SummarySnapshots(
      {
        bus: t.ctx.bus,
        db: t.ctx.db,
        now: () => t.ctx.now(),
        config: { ...t.ctx.config, summarySnapshotMs: 60_000 },
      },
      log,
    );
    try {
      const owner = await actorOf(w.users.ORGANIZATION_OWNER.accessToken);
      const heartRate = async (settled: boolean) => {
        const a = await snapshots.answer(owner, {}, { format: 'columns', settled });
        const body = summaryColumnsResponse.parse(JSON.parse(String(a.body)));
        return decodeSummaryColumns(body).find((x) => x.uid === w.w2.uid)?.heartRate;
      };
      const before = await heartRate(false);
      expect(before).not.toBe(142);
      expect((await post(w.w2, reading(w.w2, 142))).json()).toMatchObject({ accepted: 1 });
      // Stored, then announced as the rollup's flush announces it (here after the commit for sure).
      const stored = async () =>
        (
          JSON.parse(
            await deviceDataService(t.ctx).summaryFromDatabase(owner, {}),
          ) as SummaryResponse
        ).wearers.find((x) => x.uid === w.w2.uid)?.heartRate;
      for (let i = 0; (await stored()) !== 142; i++) {
        if (i > 250) throw new Error('the reading never reached the latest values');
        await new Promise((r) => setTimeout(r, 20));
      }
      t.ctx.bus.emit('wearer.updated', {
        organizationId: w.orgA,
        groupId: w.w2.groupId,
        wearerId: w.w2.uid,
      });
      // Within the window a plain request gets the snapshot as it was: the page that asked when
      // its stream opened kept that until its next poll, a minute later.
      expect(await heartRate(false)).toBe(before);
      expect(await heartRate(true)).toBe(142);
      // The settled read is the snapshot now: plain requests have it too.
      expect(await heartRate(false)).toBe(142);
    } finally {
      snapshots.close();
    }
  });

  it('refuses a settled flag that is not a flag, naming it', async () => {
    const res = await t.app.inject({
      url: '/v3/device/summary?format=columns&settled=soon',
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('settled');
    const ok = await t.app.inject({
      url: '/v3/device/summary?format=columns&settled=true',
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('turns a wearer offline when the clock passes their window, in the next answer and without a read', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    expect((await post(w.w2, reading(w.w2, 98))).json()).toMatchObject({ accepted: 1 });
    await summaryUntil(
      owner,
      (s) => s.wearers.find((x) => x.uid === w.w2.uid)?.connection === 'online',
    );
    const wholeReads = t.ctx.summaries.counts.wholeReads;
    const realNow = t.ctx.now;
    const cluster = t.ctx.cluster;
    // Silent for 11 minutes: past the 10-minute window, with no event to say so. Meanwhile this app's
    // timer jobs stay still: with the clock ahead they would escalate and tick every other test
    // file's alerts and wearers in a shared PostgreSQL database 11 minutes early.
    t.ctx.cluster = { ...cluster, leads: () => false };
    t.ctx.now = () => new Date(Date.now() + 11 * 60_000);
    try {
      // Every answer, in both forms, within the snapshot window or not, says what the clock says.
      for (const format of ['rows', 'columns'] as const) {
        const res = await t.app.inject({
          url: `/v3/device/summary?format=${format}`,
          headers: owner,
        });
        const wearers =
          format === 'rows'
            ? summaryResponse.parse(res.json()).wearers
            : decodeSummaryColumns(summaryColumnsResponse.parse(res.json()));
        expect(wearers.find((x) => x.uid === w.w2.uid)?.connection).toBe('offline');
      }
      // What the database says at the same moment.
      const sql = JSON.parse(
        await deviceDataService(t.ctx).summaryFromDatabase(
          await actorOf(w.users.ORGANIZATION_OWNER.accessToken),
          {},
        ),
      ) as SummaryResponse;
      expect(sql.wearers.find((x) => x.uid === w.w2.uid)?.connection).toBe('offline');
    } finally {
      t.ctx.now = realNow;
      t.ctx.cluster = cluster;
    }
    expect(t.ctx.summaries.counts.wholeReads).toBe(wholeReads);
  });

  it('reads the scope whole for a rename an event names (the name order changes)', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    await summaryUntil(owner, () => true);
    const wholeReads = t.ctx.summaries.counts.wholeReads;
    await t.db.query('UPDATE users SET name = $2 WHERE id = $1', [w.w2.uid, '0 first by name']);
    t.ctx.bus.emit('wearer.updated', {
      organizationId: w.orgA,
      groupId: w.w2.groupId,
      wearerId: w.w2.uid,
    });
    const s = await summaryUntil(owner, (x) => x.wearers[0]?.uid === w.w2.uid);
    expect(s.wearers[0]?.name).toBe('0 first by name');
    expect(t.ctx.summaries.counts.wholeReads).toBeGreaterThan(wholeReads);
  });

  it('reads the scope whole in the background once the last whole read is SUMMARY_MAX_STALE_MS old (changes no event announces, e.g. SQL)', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    await summaryUntil(owner, () => true);
    await t.db.query('UPDATE users SET name = $2 WHERE id = $1', [w.w1.uid, 'renamed wearer']);
    const before = t.ctx.config.summaryMaxStaleMs;
    t.ctx.config.summaryMaxStaleMs = 100;
    try {
      await new Promise((r) => setTimeout(r, 150));
      // The request that finds it old starts the read; a request soon after has the new name.
      await summaryUntil(
        owner,
        (s) => s.wearers.find((x) => x.uid === w.w1.uid)?.name === 'renamed wearer',
        2000,
      );
    } finally {
      t.ctx.config.summaryMaxStaleMs = before;
    }
  });

  it('reads the scope whole in the background for settled requests too (the console asks only those)', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    const url = '/v3/device/summary?settled=true';
    const nameOf = async () =>
      (await t.app.inject({ url, headers: owner }))
        .json<SummaryResponse>()
        .wearers.find((x) => x.uid === w.w1.uid)?.name;
    await nameOf();
    await t.db.query('UPDATE users SET name = $2 WHERE id = $1', [w.w1.uid, 'renamed by SQL']);
    const before = t.ctx.config.summaryMaxStaleMs;
    t.ctx.config.summaryMaxStaleMs = 100;
    try {
      await new Promise((r) => setTimeout(r, 150));
      const deadline = Date.now() + 2000;
      while ((await nameOf()) !== 'renamed by SQL') {
        if (Date.now() > deadline) throw new Error('the background read never came');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      t.ctx.config.summaryMaxStaleMs = before;
    }
  });

  it('gives the live stream the alert as the alerts API shows it, without a query', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    await summaryUntil(owner, () => true);
    const opened: AlertRecord[] = [];
    const listen = (a: AlertRecord) => opened.push(a);
    t.ctx.bus.on('alert.opened', listen);
    try {
      const fall = {
        events: [
          { serialNumber: w.w1.bracelet.serialNumber, type: 'FALL', at: new Date().toISOString() },
        ],
      };
      expect((await post(w.w1, fall)).json()).toMatchObject({ accepted: 1 });
    } finally {
      t.ctx.bus.off('alert.opened', listen);
    }
    const alert = opened.find((a) => a.wearerId === w.w1.uid);
    if (!alert) throw new Error('no alert opened');
    const fromMemory = alertRowFromMemory(t.ctx, log, alert);
    const fromDb = await alertsRepository(t.db).getAlert(alert.id);
    if (!fromMemory || !fromDb) throw new Error('missing row');
    expect(toAlertView(fromMemory)).toEqual(toAlertView(fromDb));
  });

  it('answers gzip-encoded once the whole answer is large and the client accepts it', async () => {
    // Small answers are never compressed.
    const res = await t.app.inject({
      url: '/v3/device/summary',
      headers: { ...w.users.ORGANIZATION_OWNER.headers, 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json<SummaryResponse>().wearers.length).toBeGreaterThan(0);
  });

  it('gzips a large answer before its first sending, once, for every caller asking meanwhile', async () => {
    // Every answer counts as large here; the gzip runs once and the three callers share it.
    const snapshots = new SummarySnapshots(t.ctx, log, 1);
    try {
      const owner = await actorOf(w.users.ORGANIZATION_OWNER.accessToken);
      const answers = await Promise.all(
        [1, 2, 3].map(() => snapshots.answer(owner, {}, { acceptsGzip: true, format: 'columns' })),
      );
      for (const a of answers) expect(a.gzip).toBe(true);
      expect(answers[1]!.body).toBe(answers[0]!.body);
      expect(answers[2]!.body).toBe(answers[0]!.body);
      const text = gunzipSync(answers[0]!.body).toString();
      expect(summaryColumnsResponse.parse(JSON.parse(text)).rows.length).toBeGreaterThan(0);
      // A client that does not accept gzip gets the same answer plain, with the same tag.
      const plain = await snapshots.answer(owner, {}, { format: 'columns' });
      expect(plain.gzip).toBe(false);
      expect(String(plain.body)).toBe(text);
      expect(plain.etag).toBe(answers[0]!.etag);
    } finally {
      snapshots.close();
    }
  });

  it('sends the same bytes with one ETag until the snapshot changes; If-None-Match gets a 304', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    const url = '/v3/device/summary?format=columns';
    // Every change announced so far in the snapshot first: the earlier tests' (an alert opened a
    // moment ago is otherwise answered within SUMMARY_SNAPSHOT_MS without it, and the whole read
    // below would rightly find it new), and the setup's readings, written by the rollups' flush.
    await t.ctx.rollups.flush();
    await summaryUntil(owner, () => true);
    let first = await t.app.inject({ url: `${url}&settled=1`, headers: owner });
    // An announcement may still land between two requests (a patched snapshot, rightly a new
    // tag): two answers in a row from one snapshot are compared.
    let again = await t.app.inject({ url, headers: owner });
    for (let i = 0; i < 20 && again.headers.etag !== first.headers.etag; i++) {
      first = again;
      again = await t.app.inject({ url, headers: owner });
    }
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    // Personal data: no cache keeps it on disk (security-headers.ts); the caller keeps the tag.
    expect(first.headers['cache-control']).toBe('no-store');
    expect(again.headers.etag).toBe(etag);
    expect(again.body).toBe(first.body);
    const unchanged = await t.app.inject({
      url,
      headers: { ...owner, 'if-none-match': String(etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    // A whole read that finds nothing new (the background one, for changes no event announces)
    // keeps the snapshot: the same tag, still a 304.
    const wholeReads = t.ctx.summaries.counts.wholeReads;
    t.ctx.summaries.markAllDirty();
    await new Promise((r) => setTimeout(r, 60)); // past the 50 ms window: this request reads whole
    const reread = await t.app.inject({
      url,
      headers: { ...owner, 'if-none-match': String(etag) },
    });
    expect(t.ctx.summaries.counts.wholeReads).toBe(wholeReads + 1);
    expect(reread.statusCode).toBe(304);
    // Another form, or a caller who sees other wearers, has other bytes and so another tag.
    const rows = await t.app.inject({ url: '/v3/device/summary', headers: owner });
    expect(rows.headers.etag).not.toBe(etag);
    const manager = await t.app.inject({ url, headers: w.users.ORGANIZATION_GROUP.headers });
    expect(manager.headers.etag).not.toBe(etag);
    const managerStale = await t.app.inject({
      url,
      headers: { ...w.users.ORGANIZATION_GROUP.headers, 'if-none-match': String(etag) },
    });
    expect(managerStale.statusCode).toBe(200);
    // A new reading rebuilds the snapshot: a new tag, and the old one gets the whole answer.
    expect((await post(w.w2, reading(w.w2, 131))).json()).toMatchObject({ accepted: 1 });
    await summaryUntil(owner, (s) => s.wearers.find((x) => x.uid === w.w2.uid)?.heartRate === 131);
    const changed = await t.app.inject({
      url,
      headers: { ...owner, 'if-none-match': String(etag) },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('refuses an unknown format with a 400 naming the field', async () => {
    const res = await t.app.inject({
      url: '/v3/device/summary?format=xml',
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('format');
  });
});
