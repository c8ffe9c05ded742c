import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';
import {
  countReadings,
  makeBatches,
  missingAcknowledged,
  newReport,
  sendAllOverHttp,
  sosAlertsPerWearer,
} from '../../testing/gateway-load.js';
import {
  freshPostgresDatabase,
  runCli,
  type SpawnedServer,
  spawnServer,
} from '../../testing/spawn-server.js';
import { pgliteFolderFromTemplate } from '../../testing/test-db.js';
import { type Db, openPglite, openPostgres } from '../client.js';
import { migrate } from '../migrate.js';
import { readBackupArchive } from './backup-archive.js';

/**
 * A backup taken while a gateway sends at full rate (4 batches in flight, each retried until
 * acknowledged) restores into a fresh data folder (PGlite) or database (PostgreSQL) with every
 * reading acknowledged before the backup's point, each once; a server then starts on it. The
 * backup's point: PGlite's `consistentAt` (pg_backup_stop), pg_dump's start. Through the real CLI
 * and the real server, as an operator runs them. Nothing here measures time.
 */
const postgres = !!process.env.TEST_DATABASE_URL;
/** Sent from before the backup until after it; then AFTER more, acknowledged after it ended. */
const DURING = 200;
const AFTER = 40;
const BATCHES = DURING + AFTER;
const PER_BATCH = 50;

async function seed(db: Db): Promise<WearerRecord[]> {
  const org = await createOrganization(db);
  const first = await createWearer(db, { organizationId: org.id });
  const wearers = [first];
  for (let i = 0; i < 3; i++)
    wearers.push(await createWearer(db, { organizationId: org.id, gateway: first.gateway }));
  return wearers;
}

/**
 * Sends the first DURING batches, calls `during` after the 15th acknowledgement, then the last
 * AFTER batches once it has returned; returns each batch's acknowledgement time.
 */
async function ingestWhile(
  server: SpawnedServer,
  wearers: WearerRecord[],
  prefix: string,
  during: () => Promise<void>,
) {
  const batches = makeBatches(prefix, wearers, BATCHES, PER_BATCH);
  const report = newReport();
  const ackedAt = new Map<string, number>();
  let order: string[] = [];
  let startBackup: () => void = () => undefined;
  const backupTime = new Promise<void>((r) => (startBackup = r));
  const options = {
    deadline: Date.now() + 240_000,
    report,
    onAck: (n: number) => {
      order = [...report.acknowledged];
      ackedAt.set(order[n - 1]!, Date.now());
      if (n === 15) startBackup();
    },
  };
  const gateway = wearers[0]!.gateway;
  const sending = sendAllOverHttp(() => server.baseUrl, gateway, batches.slice(0, DURING), options);
  await backupTime;
  await during();
  await Promise.all([
    sending,
    sendAllOverHttp(() => server.baseUrl, gateway, batches.slice(DURING), options),
  ]);
  expect(report.acknowledged.size).toBe(BATCHES);
  return { batches, ackedAt };
}

const ackedBefore = (ackedAt: Map<string, number>, point: number) =>
  new Set([...ackedAt].filter(([, at]) => at <= point).map(([id]) => id));

describe('backup during ingestion, restored', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-backup-'));
  const servers: SpawnedServer[] = [];
  const databases: Awaited<ReturnType<typeof freshPostgresDatabase>>[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill9();
    for (const d of databases) await d.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(!postgres)(
    'PGlite: the running server takes the backup; restored, it holds every reading acknowledged before its point, and a server starts on it',
    async () => {
      const dataDir = join(dir, 'db');
      pgliteFolderFromTemplate(dataDir);
      const seedDb = await openPglite(dataDir);
      await migrate(seedDb);
      const wearers = await seed(seedDb);
      await seedDb.close();
      const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
      const server = await spawnServer(env, join(dir, 'server.log'));
      servers.push(server);
      await server.ready();

      const file = join(dir, 'during.tar.gz');
      let backup = { code: null as number | null, output: '' };
      const { batches, ackedAt } = await ingestWhile(server, wearers, 'bk-lite', async () => {
        backup = await runCli(['backup', '--out', file], env);
        // The folder is the server's: a command that would open it refuses, and says why.
        const refused = await runCli(['restore', '--in', file], env);
        expect(refused.code).toBe(1);
        expect(refused.output).toMatch(/A server \(pid \d+\) is running on DATA_DIR/);
        // Nor does a second server start on it.
        const second = await runCli(['start'], { ...env, PORT: '0', MQTT_PORT: '0' });
        expect(second.code).toBe(1);
        expect(second.output).toMatch(/stop it before starting another/);
      });
      expect(backup.output).toMatch(/taken by the running server/);
      expect(backup.code).toBe(0);
      await server.stop();

      const { manifest } = await readBackupArchive(createReadStream(file));
      const before = ackedBefore(ackedAt, Date.parse(manifest.consistentAt));
      expect(before.size).toBeGreaterThanOrEqual(15);
      expect(before.size).toBeLessThanOrEqual(DURING);

      const restoredDir = join(dir, 'restored');
      const restored = await runCli(['restore', '--in', file], { DATA_DIR: restoredDir });
      expect(restored.output).toMatch(/^Restored /m);
      expect(restored.code).toBe(0);
      // Restoring again over it is refused: a restore never writes into a folder with data.
      const again = await runCli(['restore', '--in', file], { DATA_DIR: restoredDir });
      expect(again.output).toMatch(/is not empty: move it away first/);

      const db = await openPglite(restoredDir);
      try {
        expect(await missingAcknowledged(db, wearers, batches, before)).toBe(0);
        const counted = await countReadings(db, wearers);
        expect(counted.rows).toBe(counted.distinct);
        expect(counted.rows).toBeGreaterThanOrEqual(before.size * PER_BATCH);
        for (const n of await sosAlertsPerWearer(db, wearers)) expect(n).toBeLessThanOrEqual(1);
      } finally {
        await db.close();
      }
      const onRestored = await spawnServer(
        { DATA_DIR: restoredDir, SEED_DEMO: 'false' },
        join(dir, 'restored.log'),
      );
      servers.push(onRestored);
      await onRestored.ready();
      await onRestored.stop();
    },
    300_000,
  );

  it.runIf(postgres)(
    'PostgreSQL: pg_dump during ingestion, pg_restore into an empty database: every reading acknowledged before the dump began',
    async () => {
      const source = await freshPostgresDatabase('bksrc');
      databases.push(source);
      const env = { DATABASE_URL: source.url, WORKERS: '1', DATA_DIR: dir };
      const server = await spawnServer(env, join(dir, 'server.log'));
      servers.push(server);
      await server.ready();
      const seedDb = await openPostgres(source.url, 2);
      const wearers = await seed(seedDb);
      await seedDb.close();

      const file = join(dir, 'during.dump');
      let startedAt = 0;
      let backup = { code: null as number | null, output: '' };
      const { batches, ackedAt } = await ingestWhile(server, wearers, 'bk-pg', async () => {
        startedAt = Date.now();
        backup = await runCli(['backup', '--out', file], env);
      });
      expect(backup.output).toMatch(/pg_dump custom format/);
      expect(backup.code).toBe(0);
      // The URL's password never reaches pg_dump's command line (it goes through PGPASSWORD).
      expect(backup.output).not.toMatch(/postgres:\/\//);
      await server.stop();

      const target = await freshPostgresDatabase('bkdst');
      databases.push(target);
      const restored = await runCli(['restore', '--in', file], { DATABASE_URL: target.url });
      expect(restored.output).toMatch(/^Restored .* into PostgreSQL/m);
      expect(restored.code).toBe(0);
      const again = await runCli(['restore', '--in', file], { DATABASE_URL: target.url });
      expect(again.output).toMatch(/already has tables/);

      const before = ackedBefore(ackedAt, startedAt);
      expect(before.size).toBeGreaterThanOrEqual(15);
      const db = await openPostgres(target.url, 1);
      try {
        expect(await missingAcknowledged(db, wearers, batches, before)).toBe(0);
        const counted = await countReadings(db, wearers);
        expect(counted.rows).toBe(counted.distinct);
      } finally {
        await db.close();
      }
    },
    300_000,
  );
});
