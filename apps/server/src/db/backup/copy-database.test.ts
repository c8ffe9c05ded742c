import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrganization, createWearer } from '../../testing/factories.js';
import { freshPostgresDatabase, runCli } from '../../testing/spawn-server.js';
import { pgliteFolderFromTemplate } from '../../testing/test-db.js';
import { ensurePartitions } from '../../modules/readings/partitions.js';
import { seedDemo } from '../seed/demo.js';
import { type Db, openPglite, openPostgres, type Queryable } from '../client.js';
import { migrate } from '../migrate.js';

/**
 * The embedded default grows up: `move-to-postgres` copies a PGlite folder into an empty
 * PostgreSQL database, and every row of every table is the same on both sides, value for value
 * (compared as PostgreSQL's own JSON of each row): timestamps, float4 readings, jsonb, arrays,
 * the time partitions of readings, the sequences. A second move into the same database is refused.
 */
const postgres = !!process.env.TEST_DATABASE_URL;

async function tables(db: Queryable): Promise<string[]> {
  return (
    await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
    )
  ).map((r) => r.name);
}

/** Every row of a table as JSON text, sorted: equal lists mean equal tables. */
const rowsOf = async (db: Queryable, table: string) =>
  (
    await db.query<{ j: string }>(
      `SELECT row_to_json(t)::text AS j FROM public."${table}" t ORDER BY 1`,
    )
  ).map((r) => r.j);

describe('move-to-postgres', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-move-'));
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(postgres)(
    'copies every table row for row, with the partitions and sequences, and refuses a second move',
    async () => {
      const dataDir = join(dir, 'db');
      pgliteFolderFromTemplate(dataDir);
      const lite: Db = await openPglite(dataDir);
      try {
        await migrate(lite);
        await seedDemo(lite);
        const org = await createOrganization(lite);
        const wearer = await createWearer(lite, { organizationId: org.id });
        // A partition ahead (as the timer job makes them) and readings in it and in the default one.
        await ensurePartitions(lite, new Date(), 2);
        await lite.query(
          `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate, skin_temperature, worn)
           SELECT $1, now() - make_interval(mins => g), $2, $3, 60 + g % 40, 36.1 + g / 1000.0, true
             FROM generate_series(1, 500) g`,
          [wearer.bracelet.id, wearer.uid, org.id],
        );
        await lite.query(
          `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate)
           VALUES ($1, '2020-01-01T00:00:00.123456Z', $2, $3, 71.3)`,
          [wearer.bracelet.id, wearer.uid, org.id],
        );
      } finally {
        await lite.close();
      }

      fresh = await freshPostgresDatabase('move');
      const env = { DATA_DIR: dataDir, DATABASE_URL: fresh.url };
      const moved = await runCli(['move-to-postgres'], env);
      expect(moved.output).toMatch(/every table counted on both sides/);
      expect(moved.code).toBe(0);

      const source = await openPglite(dataDir);
      const target = await openPostgres(fresh.url, 1);
      try {
        const names = await tables(source);
        expect(await tables(target)).toEqual(names);
        for (const table of names) {
          if (table === 'schema_migrations') continue;
          expect({ table, rows: await rowsOf(target, table) }).toEqual({
            table,
            rows: await rowsOf(source, table),
          });
        }
        const partitions = `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                             WHERE i.inhparent = 'readings'::regclass ORDER BY 1`;
        expect(await target.query(partitions)).toEqual(await source.query(partitions));
        const sequences = 'SELECT sequencename, last_value FROM pg_sequences ORDER BY 1';
        expect(await target.query(sequences)).toEqual(await source.query(sequences));
      } finally {
        await target.close();
        await source.close();
      }

      const again = await runCli(['move-to-postgres'], env);
      expect(again.code).toBe(1);
      expect(again.output).toMatch(/already has tables/);
    },
    240_000,
  );

  it('without DATABASE_URL it says what to set', async () => {
    const r = await runCli(['move-to-postgres'], { DATA_DIR: join(dir, 'none') });
    expect(r.code).toBe(1);
    expect(r.output).toMatch(/Set DATABASE_URL to the new, empty PostgreSQL database/);
  });
});
