import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { freshPostgresDatabase, type SpawnedServer, spawnServer } from '../testing/spawn-server.js';

describe('WORKERS configuration', () => {
  it('defaults to one process on PGlite and to the number of cores on PostgreSQL', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' }).workers,
    ).toBeGreaterThanOrEqual(1);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db', WORKERS: '3' }).workers).toBe(3);
  });
  it('sizes the PostgreSQL pool to the cores shared among the workers; an explicit size wins', () => {
    const pg = 'postgres://x@localhost/db';
    const cores = availableParallelism();
    expect(loadConfig({ DATABASE_URL: pg, WORKERS: '1' }).databasePoolSize).toBe(
      Math.max(2, 2 * cores),
    );
    expect(loadConfig({ DATABASE_URL: pg, WORKERS: String(2 * cores) }).databasePoolSize).toBe(2);
    expect(loadConfig({ DATABASE_URL: pg, DATABASE_POOL_SIZE: '7' }).databasePoolSize).toBe(7);
    expect(loadConfig({ DATABASE_URL: pg }).databaseUrgentPoolSize).toBe(4);
    expect(() => loadConfig({ DATABASE_URL: pg, DATABASE_POOL_SIZE: '0' })).toThrow(ConfigError);
  });

  it('refuses several workers on PGlite, and NATS_URL without PostgreSQL, in one line', () => {
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(
      /^Invalid WORKERS=2: PGlite .*DATABASE_URL$/,
    );
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ NATS_URL: 'nats://127.0.0.1:4222' })).toThrow(
      /NATS_URL needs DATABASE_URL/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://x@localhost/db', NATS_URL: 'http://x' }),
    ).toThrow(/NATS_URL/);
  });
});

// Real processes on a database of the test's own: PostgreSQL only (server-postgres project).
describe.runIf(!!process.env.TEST_DATABASE_URL)('WORKERS=2 on PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-workers-'));
  let server: SpawnedServer | undefined;
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The worker slots answering /readyz over fresh connections (node:cluster hands them out in turn
   * to the workers listening), for up to 30 s: a worker still starting gets none yet. 200 quick
   * connections were not enough on a fast machine, where they all came before worker 0 listened.
   */
  const slotsAnswering = async (base: string) => {
    const seen = new Set<string>();
    for (const until = Date.now() + 30_000; Date.now() < until && seen.size < 2;) {
      const res = await fetch(`${base}/readyz`, { headers: { connection: 'close' } }).catch(
        () => null,
      );
      if (res?.ok) seen.add(res.headers.get('x-worker') ?? '?');
      // A worker may still be starting.
      await new Promise((r) => setTimeout(r, res?.ok ? 10 : 100));
    }
    return [...seen].sort();
  };
  // The primary's children running main.ts (not tsx's esbuild helper).
  const workerPids = (primary: number) =>
    execFileSync('pgrep', ['-P', String(primary), '-f', 'main\\.ts'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);

  it('starts two worker processes on one port, both answer, and a worker killed with -9 is started again', async () => {
    db = await freshPostgresDatabase('workers');
    server = await spawnServer(
      { DATABASE_URL: db.url, WORKERS: '2', DATA_DIR: dir },
      join(dir, 'server.log'),
    );
    await server.ready();
    expect(await slotsAnswering(server.baseUrl)).toEqual(['0', '1']);

    const primary = server.child.pid!;
    const before = workerPids(primary);
    expect(before).toHaveLength(2);
    process.kill(before[0]!, 'SIGKILL');
    const end = Date.now() + 90_000;
    while (
      Date.now() < end &&
      !(workerPids(primary).length === 2 && !workerPids(primary).includes(before[0]!))
    ) {
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(workerPids(primary).includes(before[0]!)).toBe(false);
    expect(server.child.exitCode).toBeNull();
    // The replacement takes the dead worker's slot once it is ready.
    let slots: string[] = [];
    while (Date.now() < end && (slots = await slotsAnswering(server.baseUrl)).length < 2);
    expect(slots).toEqual(['0', '1']);
  }, 180_000);
});
