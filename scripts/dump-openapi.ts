/**
 * Prints the server's OpenAPI document (GET /v2/openapi.json of a real app on a fresh in-memory
 * PGlite), keys sorted, so two versions can be diffed: the document must stay the same but for
 * wording when routes move to their contracts (issue 15).
 *
 *   npx tsx --tsconfig apps/server/src/testing/tsx.tsconfig.json scripts/dump-openapi.ts > a.json
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { createContext } from '../apps/server/src/context.js';
import { wrapPglite } from '../apps/server/src/db/client.js';
import { migrate } from '../apps/server/src/db/migrate.js';

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, sorted(v)]),
    );
  }
  return value;
}

const db = wrapPglite(await PGlite.create());
await migrate(db);
const dataDir = mkdtempSync(join(tmpdir(), 'wearable-openapi-'));
const config = {
  ...loadConfig({ LOG_LEVEL: 'silent', SIMULATOR: 'false' }),
  authSecret: 'openapi-dump-openapi-dump-openapi-dump-0123',
  dataDir,
};
const app = await buildApp(createContext(config, db), { serveWeb: false, logger: false });
await app.ready();
const res = await app.inject({ url: '/v2/openapi.json' });
process.stdout.write(JSON.stringify(sorted(res.json()), null, 1) + '\n');
await app.close();
await db.close();
rmSync(dataDir, { recursive: true, force: true });
