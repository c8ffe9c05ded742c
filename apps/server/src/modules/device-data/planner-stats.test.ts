import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.js';
import { openTestDb } from '../../testing/test-db.js';
import { analyzeTableByTable } from './planner-stats.job.js';

// The job runs on PGlite only (PostgreSQL has autovacuum); ANALYZE ONLY needs PostgreSQL 18, which PGlite is.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'planner statistics on PGlite, table by table',
  () => {
    let db: Db;
    beforeAll(async () => {
      db = await openTestDb();
    });
    afterAll(() => db.close());

    it('analyses every table in its own call, the partitioned readings included, and each gets its statistics', async () => {
      await db.query(
        `INSERT INTO organizations (id, name) VALUES ('org-planner-stats', 'planner stats') ON CONFLICT DO NOTHING`,
      );
      const calls: string[] = [];
      const spy = {
        ...db,
        query: <T>(text: string, params?: unknown[]) => (
          calls.push(text),
          db.query<T>(text, params)
        ),
      };
      const n = await analyzeTableByTable(spy);
      const analyses = calls.filter((c) => c.startsWith('ANALYZE '));
      expect(analyses).toHaveLength(n);
      expect(analyses).toContain('ANALYZE ONLY public.readings');
      expect(analyses).toContain('ANALYZE public.organizations');
      const [org] = await db.query<{ analysed: boolean }>(
        `SELECT last_analyze IS NOT NULL AS analysed FROM pg_stat_user_tables WHERE relname = 'organizations'`,
      );
      expect(org?.analysed).toBe(true);
    });
  },
);
