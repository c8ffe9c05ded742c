import type { AppContext } from '../../context.js';

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
    ctx.db.query('ANALYZE').catch((err: unknown) => log.error({ err }, 'ANALYZE failed'));
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
