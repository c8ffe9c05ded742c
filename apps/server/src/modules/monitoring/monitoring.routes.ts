import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { monitoringService } from './monitoring.service.js';

const query = z.object({
  o: z.string().regex(/^\d{1,20}$/, 'must be the numeric organisation id'),
  p: z.string().regex(/^\d{1,20}$/, 'must be the numeric project id'),
});

/**
 * POST /monitoring?o=&p=: the tunnel the console's error and performance monitoring posts its
 * envelopes to (same origin, so ad blockers and CSP do not drop them); monitoring.service relays.
 */
export const monitoringRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  app.addContentTypeParser(
    ['application/x-sentry-envelope', 'text/plain', 'application/octet-stream'],
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  const monitoring = monitoringService(ctx.config, app.log);
  app.post(
    '/monitoring',
    { schema: { querystring: query, hide: true } },
    async (request, reply) => {
      monitoring.relay(request.body, { organization: request.query.o, project: request.query.p });
      return reply.code(202).send({ accepted: true });
    },
  );
};
