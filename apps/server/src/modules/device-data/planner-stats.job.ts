import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';

/** How often planner statistics are refreshed on PGlite. */
export const ANALYZE_EVERY_MS = 10 * 60_000;

type Log = { error(obj: object, msg: string): void };

/**
 * PGlite runs no autovacuum, so without this its tables never get statistics and the planner
 * guesses one row per table: the 10,000-wearer summary then took 0.9-30 s instead of ~60 ms.
 * PostgreSQL's autovacuum does the same job there, so this runs on PGlite only.
 */
export function startPlannerStats(ctx: AppContext, log: Log): () => void {
  if (ctx.db.kind !== 'pglite') return () => undefined;
  const run = () => {
    analyzeTableByTable(ctx.db).catch((err: unknown) => log.error({ err }, 'ANALYZE failed'));
  };
  const first = setTimeout(run, 1_000);
  const timer = setInterval(run, ANALYZE_EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/**
 * ANALYZE one table at a time, each its own call: PGlite holds the server's thread for a call, and
 * one ANALYZE of everything held it for ~360 ms on a small database (more as it grows), so an SOS
 * arriving then waited that long. Between two tables the database lane lets urgent work in. A
 * partitioned table is analysed ONLY for its own statistics; its partitions come on their own.
 */
export async function analyzeTableByTable(db: Queryable): Promise<number> {
  const tables = await db.query<{ name: string; partitioned: boolean }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name, c.relkind = 'p' AS partitioned
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
      ORDER BY c.relname`,
  );
  for (const t of tables) await db.query(`ANALYZE ${t.partitioned ? 'ONLY ' : ''}${t.name}`);
  return tables.length;
}
