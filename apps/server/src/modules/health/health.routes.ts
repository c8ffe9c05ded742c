import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { stoppedOrganizations } from '../../observability/metrics.routes.js';

/**
 * /healthz: the process is up. /readyz: the database answers (else 503), and how this server's
 * cross-server bus is: its transport, whether it is connected, how often it resynchronised, and
 * whether this server runs the timer jobs. A lost bus leaves the server ready (it still ingests and
 * serves; it replays what it missed when the bus is back), so a load balancer keeps it, and an
 * operator sees it. `ingestion.stopped` lists the organisations whose gateways sent readings in the last day but
 * none for INGESTION_STOPPED_MINUTES (docs/operations.md). With WORKERS=N both name the worker slot that answered (X-Worker), so an
 * operator or a test can tell the processes apart.
 */
/** /readyz answers within this (a database cut off answers nothing). */
const READY_WITHIN_MS = 1_500;

export const healthRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  if (ctx.config.workers > 1) {
    app.addHook('onSend', async (_request, reply) => {
      void reply.header('x-worker', String(ctx.config.workerIndex));
    });
  }
  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      // Within 2 s whatever the network does (a cut never answers): not ready.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        ctx.db.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('the database did not answer in time')),
            READY_WITHIN_MS,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      const bus = ctx.cluster;
      // The pipeline, not this server: an organisation whose gateways went quiet leaves the server ready.
      const stopped = await stoppedOrganizations(
        ctx.db,
        ctx.now(),
        ctx.config.ingestionStoppedMinutes,
      );
      return {
        status: 'ready',
        ingestion: { stoppedMinutes: ctx.config.ingestionStoppedMinutes, stopped },
        bus: {
          transport: bus.transport,
          connected: bus.connected(),
          resyncs: bus.resyncs(),
          leader: bus.leads(),
        },
      };
    } catch (err) {
      return reply.code(503).send({ status: 'unavailable', reason: (err as Error).message });
    }
  });
};
