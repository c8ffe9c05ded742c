import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';

/**
 * /healthz: the process is up. /readyz: the database answers. With WORKERS=N both name the
 * worker slot that answered (X-Worker), so an operator or a test can tell the processes apart.
 */
export const healthRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  if (ctx.config.workers > 1) {
    app.addHook('onSend', async (_request, reply) => {
      void reply.header('x-worker', String(ctx.config.workerIndex));
    });
  }
  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ctx.db.query('SELECT 1');
      return { status: 'ready' };
    } catch (err) {
      return reply.code(503).send({ status: 'unavailable', reason: (err as Error).message });
    }
  });
};
