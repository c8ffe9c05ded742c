import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { checkEnvelope, upstreamUrl } from './monitoring.service.js';

const query = z.object({
  o: z.string().regex(/^\d{1,20}$/, 'must be the numeric organisation id'),
  p: z.string().regex(/^\d{1,20}$/, 'must be the numeric project id'),
});

/**
 * POST /monitoring?o=&p=: the tunnel the console's error and performance monitoring posts its
 * envelopes to (same origin, so ad blockers and CSP do not drop them). Relayed to
 * MONITORING_UPSTREAM when set; otherwise accepted and dropped.
 */
export const monitoringRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addContentTypeParser(
    ['application/x-sentry-envelope', 'text/plain', 'application/octet-stream'],
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  app.post('/monitoring', { schema: { querystring: query, hide: true } }, async (request, reply) => {
    const target = { organization: request.query.o, project: request.query.p };
    const envelope = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    checkEnvelope(envelope, target);
    const template = ctx.config.monitoringUpstream;
    if (template) {
      // Relay without holding the browser: the console never waits on monitoring.
      fetch(upstreamUrl(template, target), {
        method: 'POST',
        headers: { 'content-type': 'application/x-sentry-envelope' },
        body: envelope,
        signal: AbortSignal.timeout(5000),
      }).catch((err: unknown) => request.log.warn({ err }, 'monitoring relay failed'));
    }
    return reply.code(202).send({ accepted: true });
  });
};
