import type { AppContext } from '../../context.js';

/**
 * The fault tests' hook (config.testFault, TEST_FAULT with NODE_ENV=test; crash/*.test.ts): the
 * moment between an SOS batch's commit and its answer, where a server dying used to lose the
 * alert's notices and live frame (issue 34). Fires once per process: `kill` ends it as kill -9
 * does (no shutdown code runs), `throw` fails the request (the gateway sends it again),
 * `terminate` ends every other backend of the database (a PostgreSQL restart, as far as this
 * process can tell) and goes on.
 */
const fired = new WeakSet<AppContext>();

export async function testFaultAt(
  ctx: AppContext,
  at: 'urgent-committed' | 'batch-committed',
): Promise<void> {
  const fault = ctx.config.testFault;
  if (!fault || fault.at !== at || fired.has(ctx)) return;
  fired.add(ctx);
  switch (fault.action) {
    case 'kill':
      process.kill(process.pid, 'SIGKILL');
      // SIGKILL is not delivered synchronously: nothing more of this request may run.
      await new Promise(() => undefined);
      return;
    case 'throw':
      throw new Error(`test fault: ${at}`);
    case 'terminate':
      await ctx.db.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return;
  }
}
