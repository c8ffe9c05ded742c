import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { type AppContext, createContext } from '../context.js';
import type { Db } from '../db/client.js';
import { openTestDb } from './test-db.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  close(): Promise<void>;
}

/** A real app on a real database, for app.inject tests. One per test file. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const db = await openTestDb();
  // Mail (.eml) and SMS files of this test file go to its own folder, removed on close.
  const dataDir = mkdtempSync(join(tmpdir(), 'wearable-test-'));
  const base = loadConfig({ LOG_LEVEL: 'silent', SIMULATOR: 'false' });
  const config: Config = {
    ...base,
    authSecret: 'test-secret-test-secret-test-secret-0123',
    dataDir,
    // Rollups written after every batch, before its answer: tests read them right away.
    rollupFlushMs: 0,
    // Account-wide sign-in delays only where a test asks for them (sign-in-limit.test.ts).
    signInAccountDelayMs: 0,
    // No webhook deliveries where a test does not ask for them: test files share a database.
    webhooks: { ...base.webhooks, worker: false },
    // Alert notices and frames of this file's own alerts only, for the same reason.
    alertOutboxOnlyOwn: true,
    // The channel health sweep for the same reason (tests call it for their own organisation).
    channelHealthSweep: false,
    ...overrides,
  };
  const ctx = createContext(config, db);
  const app = await buildApp(ctx, { serveWeb: false, logger: false });
  await app.ready();
  return {
    app,
    ctx,
    db,
    async close() {
      await app.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
