import { readdirSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openPostgres, wrapPglite } from '../../db/client.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createOrganization, createWearer } from '../../testing/factories.js';
import { dropExpiredPartitions, ensurePartitions, listPartitions } from './partitions.js';
import { deleteExpiredTelemetry } from './retention.job.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;
const partitionOf = async (db: Db, wearerId: string, at: Date) =>
  (
    await db.query<{ p: string }>(
      'SELECT tableoid::regclass::text AS p FROM readings WHERE wearer_id = $1 AND at = $2',
      [wearerId, at.toISOString()],
    )
  )[0]?.p;

describe('readings partitioned by time', () => {
  it('a reading of today lands in a day partition the leader created ahead', async () => {
    const now = new Date();
    await ensurePartitions(t.db, now, 1);
    const names = (await listPartitions(t.db)).map((p) => p.name);
    const today = `readings_p${now.toISOString().slice(0, 10).replaceAll('-', '')}_d1`;
    expect(names).toContain(today);
    const org = await createOrganization(t.db);
    const w = await createWearer(t.db, { organizationId: org.id });
    const at = new Date(Math.floor(now.getTime() / 1000) * 1000 - 5000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
      payload: {
        readings: [{ serialNumber: w.bracelet.serialNumber, at: at.toISOString(), heartRate: 70 }],
      },
    });
    expect(res.json()).toMatchObject({ accepted: 1 });
    expect(await partitionOf(t.db, w.uid, at)).toBe(today);
    // Stored once: the same reading again is a duplicate (the key includes the partition key).
    const again = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
      payload: {
        readings: [{ serialNumber: w.bracelet.serialNumber, at: at.toISOString(), heartRate: 70 }],
      },
    });
    expect(again.json()).toMatchObject({ accepted: 0, duplicates: 1 });
  });

  it('retention drops whole expired partitions, deletes expired rows of the default one, keeps the rest', async () => {
    // Far in the past so no other test's rows sit in these ranges (PostgreSQL shares one database).
    const base = Date.UTC(2001, 2, 10);
    const week = 7;
    await ensurePartitions(t.db, new Date(base), week);
    const mine = (await listPartitions(t.db)).filter((p) => p.name.endsWith(`_d${week}`));
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const org = await createOrganization(t.db);
    const w = await createWearer(t.db, { organizationId: org.id });
    const insert = (at: Date) =>
      t.db.query(
        `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate)
         VALUES ($1, $2, $3, $4, 70)`,
        [w.bracelet.id, at.toISOString(), w.uid, org.id],
      );
    const old = new Date(mine[0]!.from.getTime() + DAY);
    const kept = new Date(mine[mine.length - 1]!.from.getTime() + DAY);
    const inDefault = new Date(Date.UTC(2000, 5, 1));
    for (const at of [old, kept, inDefault]) await insert(at);
    expect(await partitionOf(t.db, w.uid, old)).toBe(mine[0]!.name);
    expect(await partitionOf(t.db, w.uid, inDefault)).toBe('readings_default');

    const before = mine[mine.length - 1]!.from; // everything older than the last partition
    expect(await dropExpiredPartitions(t.db, before)).toContain(mine[0]!.name);
    const left = await t.db.query<{ at: Date }>(
      'SELECT at FROM readings WHERE wearer_id = $1 ORDER BY at',
      [w.uid],
    );
    expect(left.map((r) => new Date(r.at).toISOString())).toEqual(
      [inDefault, kept].map((d) => d.toISOString()),
    );
    // The job (READINGS_RETENTION_DAYS of 30) removes the rest, row by row in the default partition.
    const deleted = await deleteExpiredTelemetry(t.ctx);
    expect(deleted.readingsPartitions).toBeGreaterThanOrEqual(0);
    expect(await t.db.query('SELECT 1 FROM readings WHERE wearer_id = $1', [w.uid])).toEqual([]);
  });
});

describe('migration 017 on a database holding readings', () => {
  const files = readdirSync(new URL('../../db/migrations/', import.meta.url))
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  const sql = (f: string) =>
    readFileSync(new URL(`../../db/migrations/${f}`, import.meta.url), 'utf8');

  async function migratesRows(db: Db) {
    for (const f of files.filter((f) => f < '017')) await db.exec(sql(f));
    await db.query(`INSERT INTO organizations (id, name) VALUES ('o-mig', 'x')`);
    await db.query(
      `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate, steps, sleep_stage)
       SELECT 'b-' || (i % 3), now() - (i || ' minutes')::interval, 'w-' || (i % 3), 'o-mig', 60 + i % 40, i, 1 + i % 4
         FROM generate_series(1, 500) i`,
    );
    const before = await db.query<{ n: number; s: number }>(
      'SELECT count(*)::int AS n, sum(steps)::int AS s FROM readings',
    );
    for (const f of files.filter((f) => f >= '017')) await db.exec(sql(f));
    const after = await db.query<{ n: number; s: number }>(
      'SELECT count(*)::int AS n, sum(steps)::int AS s FROM readings',
    );
    expect(after).toEqual(before);
    expect(
      await db.query(`SELECT 1 FROM pg_partitioned_table WHERE partrelid = 'readings'::regclass`),
    ).toHaveLength(1);
    // The constraints came along: a duplicate is refused, a bad sleep stage too.
    const dup = await db.query(
      `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id)
       SELECT bracelet_id, at, wearer_id, organization_id FROM readings LIMIT 1 ON CONFLICT DO NOTHING RETURNING 1`,
    );
    expect(dup).toEqual([]);
    await expect(
      db.query(
        `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, sleep_stage) VALUES ('b', now(), 'w', 'o', 9)`,
      ),
    ).rejects.toThrow();
    // Rows of the last days move out of the default partition into the day partitions created for them.
    const created = await ensurePartitions(db, new Date(), 1);
    expect(created).toContain(
      `readings_p${new Date().toISOString().slice(0, 10).replaceAll('-', '')}_d1`,
    );
    expect(
      await db.query<{ n: number; s: number }>(
        'SELECT count(*)::int AS n, sum(steps)::int AS s FROM readings',
      ),
    ).toEqual(before);
    expect(await db.query('SELECT 1 FROM readings_default')).toEqual([]);
  }

  // A fresh PGlite (initdb + every migration) takes long on a busy machine; the PostgreSQL run skips it.
  it.runIf(!process.env.TEST_DATABASE_URL)(
    'PGlite: existing rows move into the partitioned table, constraints intact',
    { timeout: 180_000 },
    async () => {
      const db = wrapPglite(await PGlite.create());
      try {
        await migratesRows(db);
      } finally {
        await db.close();
      }
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: the same',
    { timeout: 120_000 },
    async () => {
      const base = process.env.TEST_DATABASE_URL!;
      const name = `wc_mig_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const db = await openPostgres(url.toString(), 1);
      try {
        await migratesRows(db);
      } finally {
        await db.close();
        // Without FORCE: every connection to it is closed by now (FORCE would kill a straggler noisily).
        await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
        await admin.end();
      }
    },
  );
});
