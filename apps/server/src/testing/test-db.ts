import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { type Db, openPostgres, wrapPglite } from '../db/client.js';
import { TEMPLATE_PATH } from './paths.js';

/**
 * The database a test file uses: the run's fresh PostgreSQL database when TEST_DATABASE_URL
 * is set (project server-postgres), otherwise a PGlite copied from the migrated template.
 * Share one per file; give each test its own organisation so nothing needs resetting.
 */
export async function openTestDb(): Promise<Db> {
  if (process.env.TEST_DATABASE_URL) return openPostgres(inject('testDatabaseUrl'), 4);
  const template = new Blob([readFileSync(TEMPLATE_PATH)]);
  return wrapPglite(await PGlite.create({ loadDataDir: template }));
}
