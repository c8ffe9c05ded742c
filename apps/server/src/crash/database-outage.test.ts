import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../db/client.js';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import {
  countReadings,
  eventually,
  makeBatches,
  newReport,
  sendAllOverHttp,
  sosAlertsPerWearer,
} from '../testing/gateway-load.js';
import { freshPostgresDatabase, type SpawnedServer, spawnServer } from '../testing/spawn-server.js';

/**
 * PostgreSQL lost during ingestion. Restarting the machine's PostgreSQL would disturb every other
 * test, so the test's own database is cut off instead: no new connections (ALLOW_CONNECTIONS false)
 * and every backend of the server terminated, then allowed again. Nothing here measures time.
 */
describe.runIf(!!process.env.TEST_DATABASE_URL)(
  'the database goes away during ingestion (PostgreSQL)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'wearable-outage-'));
    let server: SpawnedServer | undefined;
    let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    afterAll(async () => {
      if (fresh)
        await admin
          .query(`ALTER DATABASE ${fresh.name} ALLOW_CONNECTIONS true`)
          .catch(() => undefined);
      await admin.end().catch(() => undefined);
      await server?.stop();
      await fresh?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('stays up, says not ready, answers gateways 503 with Retry-After, and stores every batch once when it is back', async () => {
      fresh = await freshPostgresDatabase('outage');
      await admin.connect();
      server = await spawnServer(
        { DATABASE_URL: fresh.url, WORKERS: '1', DATA_DIR: dir },
        join(dir, 'server.log'),
      );
      await server.ready();
      const seedDb = await openPostgres(fresh.url, 2);
      const org = await createOrganization(seedDb);
      const first = await createWearer(seedDb, { organizationId: org.id });
      const wearers: WearerRecord[] = [first];
      for (let i = 0; i < 3; i++)
        wearers.push(
          await createWearer(seedDb, { organizationId: org.id, gateway: first.gateway }),
        );
      await seedDb.close();

      const batches = makeBatches('outage', wearers, 120, 100);
      const report = newReport();
      let cut: () => void = () => undefined;
      const cutNow = new Promise<void>((r) => (cut = r));
      const sending = sendAllOverHttp(() => server!.baseUrl, first.gateway, batches, {
        deadline: Date.now() + 240_000,
        report,
        onAck: (n) => n === 20 && cut(),
      });

      await cutNow;
      await admin.query(`ALTER DATABASE ${fresh.name} ALLOW_CONNECTIONS false`);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
        [fresh.name],
      );
      const readyz = () =>
        fetch(`${server!.baseUrl}/readyz`, { signal: AbortSignal.timeout(20_000) }).then(
          (r) => r.status,
        );
      await eventually(async () => (await readyz()) === 503, 30_000, '/readyz to answer 503');
      await eventually(
        async () => report.retryAfter.has('2'),
        30_000,
        'a gateway to get 503 with Retry-After: 2',
      );
      expect(server.child.exitCode).toBeNull();
      expect(report.acknowledged.size).toBeLessThan(batches.length);

      await admin.query(`ALTER DATABASE ${fresh.name} ALLOW_CONNECTIONS true`);
      await eventually(async () => (await readyz()) === 200, 30_000, '/readyz to answer 200 again');
      await sending;
      expect(report.acknowledged.size).toBe(batches.length);
      expect(report.statuses.get(500) ?? 0).toBe(0);
      expect(server.child.exitCode).toBeNull();

      const check = await openPostgres(fresh.url, 1);
      try {
        expect(await countReadings(check, wearers)).toEqual({
          rows: 120 * 100,
          distinct: 120 * 100,
        });
        expect(await sosAlertsPerWearer(check, wearers)).toEqual([1, 1, 1, 1]);
      } finally {
        await check.close();
      }
    }, 300_000);
  },
);
