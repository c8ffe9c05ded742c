import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';

/** /healthz: the process is up. /readyz: the database answers. */
export const healthRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
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
