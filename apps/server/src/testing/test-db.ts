import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { expect, inject } from 'vitest';
import { type Db, openPostgres, wrapPglite } from '../db/client.js';
import { isDatabaseFree } from './database-free-tests.js';
import { TEMPLATE_PATH } from './paths.js';

/**
 * The database a test file uses: the run's fresh PostgreSQL database when TEST_DATABASE_URL
 * is set (project server-postgres), otherwise a PGlite copied from the migrated template.
 * Share one per file; give each test its own organisation so nothing needs resetting.
 */
export async function openTestDb(): Promise<Db> {
  const file = expect.getState().testPath ?? '';
  if (isDatabaseFree(file))
    throw new Error(
      `${file} opens a database: take it off DATABASE_FREE_TESTS (testing/database-free-tests.ts) so the PostgreSQL pass runs it`,
    );
  if (process.env.TEST_DATABASE_URL) return openPostgres(inject('testDatabaseUrl'), 4);
  const { template, ...files } = pgliteStart();
  return wrapPglite(await PGlite.create({ ...files, loadDataDir: template }));
}

interface PgliteStart {
  /** The migrated template (global-setup.ts), uncompressed. */
  template: Blob;
  /** PGlite's file bundle: each PGlite.create would read it again. */
  fsBundle: Blob;
}

// Not app state: a memo of files that do not change during the run, once per worker (the files of a worker share
// one module graph). Measured in vitest on a quiet machine: 890 ms per test database before (the gzipped template
// read and unpacked each time), 650 ms after (590 ms with PGlite's compiled WebAssembly kept too, left out: the server's
// types have no WebAssembly value to build it with).
let start: PgliteStart | undefined;
function pgliteStart(): PgliteStart {
  if (start) return start;
  const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  start = {
    template: new Blob([readFileSync(TEMPLATE_PATH)]),
    fsBundle: new Blob([readFileSync(join(dist, 'pglite.data'))]),
  };
  return start;
}

/**
 * A PGlite data folder on disk (DATA_DIR/db) holding the migrated template, for the crash tests' real server
 * processes: opening it takes 1.6 s where a fresh folder's initdb and migrations took 6-7 s (under load).
 */
export function pgliteFolderFromTemplate(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  execFileSync('tar', ['-xf', fileURLToPath(TEMPLATE_PATH), '-C', dataDir]);
}
