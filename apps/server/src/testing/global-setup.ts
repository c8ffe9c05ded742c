import { mkdirSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { wrapPglite } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { TEMPLATE_PATH } from './paths.js';

/** Builds one migrated PGlite once per run; each test file starts from a copy (0.6 s, not 4 s). */
export default async function setup(): Promise<void> {
  const lite = await PGlite.create();
  await migrate(wrapPglite(lite));
  const dump = await lite.dumpDataDir('gzip');
  mkdirSync(new URL('.', TEMPLATE_PATH), { recursive: true });
  writeFileSync(TEMPLATE_PATH, Buffer.from(await dump.arrayBuffer()));
  await lite.close();
}
