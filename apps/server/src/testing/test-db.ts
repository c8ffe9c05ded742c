import { readFileSync } from 'node:fs';
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
  const template = new Blob([readFileSync(TEMPLATE_PATH)]);
  return wrapPglite(await PGlite.create({ loadDataDir: template }));
}
