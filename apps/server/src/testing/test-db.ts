import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { type Db, openPostgres, wrapPglite } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { TEMPLATE_PATH } from './paths.js';

/**
 * The database a test file uses: PostgreSQL when TEST_DATABASE_URL is set, otherwise a
 * PGlite copied from the migrated template. Share one per file; give each test its own
 * organisation so nothing needs resetting.
 */
export async function openTestDb(): Promise<Db> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const db = await openPostgres(url, 4);
    await migrate(db);
    return db;
  }
  const template = new Blob([readFileSync(TEMPLATE_PATH)]);
  return wrapPglite(await PGlite.create({ loadDataDir: template }));
}
