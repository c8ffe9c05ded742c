import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, openPglite, openPostgres } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { pgliteFolderFromTemplate } from '../testing/test-db.js';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import {
  countReadings,
  makeBatches,
  missingAcknowledged,
  newReport,
  sendAllOverHttp,
  sosAlertsPerWearer,
} from '../testing/gateway-load.js';
import { freshPostgresDatabase, type SpawnedServer, spawnServer } from '../testing/spawn-server.js';

/**
 * kill -9 of the server while a gateway sends batches over HTTP at full rate (4 in flight, each
 * retried until acknowledged, as a gateway does). The server is started again on the same port and
 * database; then every acknowledged reading is stored exactly once and every SOS opened one alert.
 * Nothing here measures time: the kill comes after 15 acknowledgements.
 */
const postgres = !!process.env.TEST_DATABASE_URL;
const BATCHES = 60;
const PER_BATCH = 50;

async function seed(db: Db): Promise<WearerRecord[]> {
  const org = await createOrganization(db);
  const first = await createWearer(db, { organizationId: org.id });
  const wearers = [first];
  for (let i = 0; i < 3; i++)
    wearers.push(await createWearer(db, { organizationId: org.id, gateway: first.gateway }));
  return wearers;
}

describe('kill -9 of the server during HTTP ingestion', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-kill-http-'));
  const servers: SpawnedServer[] = [];
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    for (const s of servers) await s.kill9();
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(postgres)(
    'PostgreSQL: every acknowledged reading stored once, no SOS lost or doubled, the restarted server resumes',
    async () => {
      fresh = await freshPostgresDatabase('killhttp');
      const env = { DATABASE_URL: fresh.url, WORKERS: '1', DATA_DIR: dir };
      let server = await spawnServer(env, join(dir, 'server.log'));
      servers.push(server);
      await server.ready();
      const seedDb = await openPostgres(fresh.url, 2);
      const wearers = await seed(seedDb);
      await seedDb.close();

      const batches = makeBatches('kill-pg', wearers, BATCHES, PER_BATCH);
      const report = newReport();
      let killAt: () => void = () => undefined;
      const killNow = new Promise<void>((r) => (killAt = r));
      const sending = sendAllOverHttp(() => server.baseUrl, wearers[0]!.gateway, batches, {
        deadline: Date.now() + 240_000,
        report,
        onAck: (n) => n === 15 && killAt(),
      });
      await killNow;
      await server.kill9();
      const ackedBeforeRestart = new Set(report.acknowledged);
      server = await spawnServer(env, join(dir, 'server.log'), server.port);
      servers.push(server);
      await server.ready();
      await sending;

      expect(ackedBeforeRestart.size).toBeLessThan(BATCHES);
      expect(report.acknowledged.size).toBe(BATCHES);
      const check = await openPostgres(fresh.url, 1);
      try {
        expect(await countReadings(check, wearers)).toEqual({
          rows: BATCHES * PER_BATCH,
          distinct: BATCHES * PER_BATCH,
        });
        expect(await sosAlertsPerWearer(check, wearers)).toEqual([1, 1, 1, 1]);
      } finally {
        await check.close();
      }
    },
    300_000,
  );

  it.runIf(!postgres)(
    'PGlite: the data folder opens again with every acknowledged reading, and the server resumes on it',
    async () => {
      const dataDir = join(dir, 'db');
      pgliteFolderFromTemplate(dataDir);
      const seedDb = await openPglite(dataDir);
      await migrate(seedDb);
      const wearers = await seed(seedDb);
      await seedDb.close();

      const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
      let server = await spawnServer(env, join(dir, 'server.log'));
      servers.push(server);
      await server.ready();
      const batches = makeBatches('kill-lite', wearers, BATCHES, PER_BATCH);
      const report = newReport();
      let killAt: () => void = () => undefined;
      const killNow = new Promise<void>((r) => (killAt = r));
      const sending = sendAllOverHttp(() => server.baseUrl, wearers[0]!.gateway, batches, {
        deadline: Date.now() + 240_000,
        report,
        onAck: (n) => n === 15 && killAt(),
      });
      await killNow;
      await server.kill9();
      // The senders keep failing (nothing listens) until the server is back; meanwhile the folder is ours.
      const acked = new Set(report.acknowledged);
      const reopened = await openPglite(dataDir);
      try {
        expect(await missingAcknowledged(reopened, wearers, batches, acked)).toBe(0);
        const counted = await countReadings(reopened, wearers);
        expect(counted.rows).toBe(counted.distinct);
        expect(counted.rows).toBeGreaterThanOrEqual(acked.size * PER_BATCH);
      } finally {
        await reopened.close();
      }
      server = await spawnServer(env, join(dir, 'server.log'), server.port);
      servers.push(server);
      await server.ready();
      await sending;
      expect(report.acknowledged.size).toBe(BATCHES);
      await server.stop();

      const last = await openPglite(dataDir);
      try {
        expect(await countReadings(last, wearers)).toEqual({
          rows: BATCHES * PER_BATCH,
          distinct: BATCHES * PER_BATCH,
        });
        expect(await sosAlertsPerWearer(last, wearers)).toEqual([1, 1, 1, 1]);
      } finally {
        await last.close();
      }
    },
    300_000,
  );
});
