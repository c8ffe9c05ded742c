import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, insertAlert, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createOrganization } from '../../testing/factories.js';
import { accessLogRepository } from './access-log.repository.js';
import { findChainBreak } from './access-log-chain.js';
import { accessLogService } from './access-log.service.js';
import { verifyAccessLog } from '../../cli/verify-access-log.command.js';

let t: TestApp;
let w: World;
let w1AlertId: string;
const day = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  w1AlertId = await insertAlert(t.db, w.w1, { openedAt: new Date(Date.now() - 60_000) });
  await insertAlert(t.db, w.w2, { openedAt: new Date(Date.now() - 120_000) });
});
afterAll(() => t.close());

interface Entry {
  seq: string;
  actor_id: string | null;
  api_token_id: string | null;
  session_id: string | null;
  person_ids: string[];
  what: string;
  ip: string | null;
}
/** The entries of the world's organisation `org` after seq `since`. */
async function entriesSince(org: string, since: number): Promise<Entry[]> {
  return t.db.query<Entry>(
    `SELECT * FROM access_log WHERE organization_id = $1 AND seq > $2 ORDER BY seq`,
    [org, since],
  );
}
async function headSeq(org: string): Promise<number> {
  return (await accessLogRepository(t.db).head(org))?.seq ?? 0;
}
async function verify(org: string) {
  const repo = accessLogRepository(t.db);
  const entries = [];
  for await (const e of repo.chain(org)) entries.push(e);
  return findChainBreak(entries, await repo.head(org));
}

const iso = (ms: number) => new Date(ms).toISOString();
const now = Date.now();
/** Each read of a wearer's data, as the console or a script calls it, and what it logs. */
const READS = [
  {
    what: 'history',
    url: (uid: string) => `/v3/device/history?uid=${uid}&from=${iso(now - day)}&to=${iso(now)}`,
  },
  { what: 'records', url: (uid: string) => `/v2/user/${uid}` },
  {
    what: 'monthly-report',
    url: (uid: string) => `/v2/device/monthlyReport?uid=${uid}&month=2026-11`,
  },
  {
    what: 'monthly-report',
    url: (uid: string) => `/v2/device/monthlyReportCsv?uid=${uid}&month=2026-11`,
  },
  {
    what: 'fhir',
    url: (uid: string) => `/v2/device/fhir?uid=${uid}&from=${iso(now - day)}&to=${iso(now)}`,
  },
] as const;

describe('access log: who read whose data', () => {
  for (const read of READS) {
    it(`${read.what} ${read.url('…')}: one entry naming the wearer, the reader and the session`, async () => {
      const since = await headSeq(w.orgA);
      const reader = w.users.ORGANIZATION_GENERAL;
      const res = await t.app.inject({ url: read.url(w.w1.uid), headers: reader.headers });
      expect(res.statusCode, res.body).toBe(200);
      const entries = await entriesSince(w.orgA, since);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actor_id: reader.uid,
        api_token_id: null,
        person_ids: [w.w1.uid],
        what: read.what,
        ip: '127.0.0.1',
      });
      expect(entries[0]?.session_id).toEqual(expect.any(String));
    });

    it(`${read.what}: a refused read (another group, another organisation) writes nothing`, async () => {
      const since = await headSeq(w.orgA);
      for (const name of [
        'GROUP_MANAGER_OTHER_GROUP',
        'OTHER_ORG_OWNER',
        'PERSONAL_UNLINKED',
      ] as const) {
        const res = await t.app.inject({ url: read.url(w.w1.uid), headers: w.users[name].headers });
        expect([403, 404], `${name}: ${res.body}`).toContain(res.statusCode);
      }
      expect(await entriesSince(w.orgA, since)).toEqual([]);
    });
  }

  it('the shift handover and the night round sheet: one entry each, naming the people on them', async () => {
    const since = await headSeq(w.orgA);
    const handover = await t.app.inject({
      url: `/v2/alert/handover?clientId=${w.orgA}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(handover.statusCode, handover.body).toBe(200);
    const round = await t.app.inject({
      url: `/v2/group/${w.g1}/nightRound`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(round.statusCode, round.body).toBe(200);
    const entries = await entriesSince(w.orgA, since);
    expect(entries.map((e) => e.what)).toEqual(['handover', 'night-round']);
    // w1's open SOS is on the handover; the round sheet lists group 1's residents.
    expect(entries[0]?.person_ids).toContain(w.w1.uid);
    const residents = round.json<{ wearers: { uid: string }[] }>().wearers.map((r) => r.uid);
    expect([...(entries[1]?.person_ids ?? [])].sort()).toEqual([...residents].sort());
    expect(residents).toContain(w.w1.uid);
  });

  it('an alert page: one entry with every wearer the page names', async () => {
    const since = await headSeq(w.orgA);
    const res = await t.app.inject({
      url: `/v2/alert/list?clientId=${w.orgA}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await entriesSince(w.orgA, since);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.what).toBe('alerts');
    expect([...(entries[0]?.person_ids ?? [])].sort()).toEqual([w.w1.uid, w.w2.uid].sort());
  });

  it('the alerts CSV: one csv entry; a group manager’s names only their group', async () => {
    const since = await headSeq(w.orgA);
    const res = await t.app.inject({
      url: `/v2/alert/listCsv?clientId=${w.orgA}`,
      headers: w.users.ORGANIZATION_GROUP.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await entriesSince(w.orgA, since);
    expect(entries.map((e) => [e.what, e.person_ids])).toEqual([['csv', [w.w1.uid]]]);
  });

  it('an API token reading alerts: the entry names the token, no session', async () => {
    const owner = w.users.ORGANIZATION_OWNER;
    const made = await t.app.inject({
      method: 'POST',
      url: '/v2/user/apiTokens',
      headers: owner.headers,
      payload: { name: 'nightly export', expiresInDays: 30, scopes: ['alert:read'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id, token } = made.json<{ id: string; token: string }>();
    const since = await headSeq(w.orgA);
    const res = await t.app.inject({
      url: `/v2/alert/list?clientId=${w.orgA}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await entriesSince(w.orgA, since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: owner.uid, api_token_id: id, session_id: null });
  });

  it('an alert’s timeline: one entry naming its wearer; another organisation’s owner none', async () => {
    const since = await headSeq(w.orgA);
    const url = `/v2/alert/${w1AlertId}/timeline`;
    const other = await t.app.inject({ url, headers: w.users.OTHER_ORG_OWNER.headers });
    expect([403, 404]).toContain(other.statusCode);
    const res = await t.app.inject({ url, headers: w.users.ORGANIZATION_GROUP.headers });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await entriesSince(w.orgA, since);
    expect(entries.map((e) => [e.what, e.actor_id, e.person_ids])).toEqual([
      ['alerts', w.users.ORGANIZATION_GROUP.uid, [w.w1.uid]],
    ]);
  });

  it('a page naming nobody writes nothing', async () => {
    const since = await headSeq(w.orgA);
    const res = await t.app.inject({
      url: `/v2/alert/list?clientId=${w.orgA}&from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await entriesSince(w.orgA, since)).toEqual([]);
  });

  it('a platform owner’s read is filed under the wearer’s organisation', async () => {
    const since = await headSeq(w.orgB);
    const res = await t.app.inject({
      url: `/v2/user/${w.wB.uid}`,
      headers: w.users.ALL_OWNER.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await entriesSince(w.orgB, since);
    expect(entries.map((e) => [e.actor_id, e.person_ids])).toEqual([
      [w.users.ALL_OWNER.uid, [w.wB.uid]],
    ]);
  });
});

describe('access log: the chain', () => {
  it('retention purges the oldest entries as a prefix: the chain still verifies, a later deletion is still found', async () => {
    const org = (await createOrganization(t.db)).id;
    const repo = accessLogRepository(t.db);
    const day = 86_400_000;
    const append = (daysAgo: number) =>
      t.db.transaction((tx) =>
        accessLogRepository(tx).append({
          organizationId: org,
          actorId: w.users.ORGANIZATION_OWNER.uid,
          apiTokenId: null,
          sessionId: 's-retention',
          personIds: [w.w1.uid],
          what: 'records',
          ip: null,
          at: new Date(Date.now() - daysAgo * day),
        }),
      );
    // 4 entries past 3 years, then 3 within them.
    for (const daysAgo of [1200, 1150, 1100, 1096, 1000, 10, 0]) await append(daysAgo);
    expect(await verify(org)).toBeNull();

    const service = accessLogService({ db: t.db, now: () => new Date() });
    await service.purgeExpired(1095);
    const left = await t.db.query<{ seq: number }>(
      'SELECT seq FROM access_log WHERE organization_id = $1 ORDER BY seq',
      [org],
    );
    expect(left.map((r) => Number(r.seq))).toEqual([5, 6, 7]);
    expect(await repo.head(org)).toMatchObject({ seq: 7, firstSeq: 5 });
    expect(await verify(org)).toBeNull();
    expect(await verifyAccessLog(t.db, org)).toEqual([
      { organizationId: org, entries: 3, broken: null },
    ]);
    // Purging again deletes nothing more.
    await service.purgeExpired(1095);
    expect(await verify(org)).toBeNull();

    // Deleting the (new) first entry by hand is still found: the chain must start at 5.
    await t.db.query('DELETE FROM access_log WHERE organization_id = $1 AND seq = 5', [org]);
    expect(await verify(org)).toMatchObject({ seq: 6, problem: 'missing', expectedSeq: 5 });
  });
  it('concurrent appends queue: seq 1..n without gaps, the chain holds', async () => {
    const before = await headSeq(w.orgA);
    const service = accessLogService(t.ctx);
    const reader = {
      actor: { uid: w.users.ORGANIZATION_OWNER.uid, organizationId: w.orgA } as never,
      sessionId: null,
      apiTokenId: null,
      ip: '10.0.0.1',
    };
    await Promise.all(
      Array.from({ length: 20 }, () => service.recordRead(reader, 'records', [w.w1.uid])),
    );
    expect(await headSeq(w.orgA)).toBe(before + 20);
    expect(await verify(w.orgA)).toBeNull();
  });

  it('a changed field, a deleted entry, a reordered pair, the last entry gone: each found', async () => {
    // Its own organisation's chain: the world's other tests keep theirs intact.
    const org = w.orgB;
    const service = accessLogService(t.ctx);
    const reader = {
      actor: { uid: w.users.OTHER_ORG_OWNER.uid, organizationId: org } as never,
      sessionId: 's1',
      apiTokenId: null,
      ip: '10.0.0.2',
    };
    for (let i = 0; i < 6; i++) await service.recordRead(reader, 'history', [w.wB.uid]);
    expect(await verify(org)).toBeNull();
    const last = await headSeq(org);
    const s = last - 4;

    await t.db.query(
      `UPDATE access_log SET actor_id = 'someone-else' WHERE organization_id = $1 AND seq = $2`,
      [org, s],
    );
    expect(await verify(org)).toMatchObject({ seq: s, problem: 'changed' });
    await t.db.query(
      `UPDATE access_log SET actor_id = $3 WHERE organization_id = $1 AND seq = $2`,
      [org, s, w.users.OTHER_ORG_OWNER.uid],
    );
    expect(await verify(org)).toBeNull();

    // Swapping two entries' places (their seq) breaks the links.
    const swap = async () => {
      for (const [from, to] of [
        [s, -1],
        [s + 1, s],
        [-1, s + 1],
      ])
        await t.db.query(`UPDATE access_log SET seq = $3 WHERE organization_id = $1 AND seq = $2`, [
          org,
          from,
          to,
        ]);
    };
    await swap();
    expect(await verify(org)).toMatchObject({ seq: s, problem: 'relinked' });
    await swap();
    expect(await verify(org)).toBeNull();

    // The CLI's walk (verify-access-log) answers the same.
    expect(await verifyAccessLog(t.db, org)).toEqual([
      { organizationId: org, entries: last, broken: null },
    ]);
    await t.db.query(`DELETE FROM access_log WHERE organization_id = $1 AND seq = $2`, [org, last]);
    expect(await verify(org)).toMatchObject({ problem: 'head', headSeq: last });
    const all = await verifyAccessLog(t.db);
    expect(all.find((r) => r.organizationId === org)?.broken).toMatchObject({ problem: 'head' });
    expect(all.find((r) => r.organizationId === w.orgA)?.broken).toBeNull();

    await t.db.query(`DELETE FROM access_log WHERE organization_id = $1 AND seq = $2`, [
      org,
      s + 2,
    ]);
    expect(await verify(org)).toMatchObject({ seq: s + 3, problem: 'missing', expectedSeq: s + 2 });
  });
});
