import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { checkEnvelope, dsnTarget, upstreamUrl } from './monitoring.service.js';

const query = z.object({
  o: z.string().regex(/^\d{1,20}$/, 'must be the numeric organisation id'),
  p: z.string().regex(/^\d{1,20}$/, 'must be the numeric project id'),
});

/**
 * POST /monitoring?o=&p=: the tunnel the console's error and performance monitoring posts its
 * envelopes to (same origin, so ad blockers and CSP do not drop them). Relayed only for the
 * MONITORING_DSN configured on the server (to MONITORING_UPSTREAM, or the DSN host's envelope
 * endpoint); without it accepted and dropped.
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
  const configured = ctx.config.monitoringDsn ? dsnTarget(ctx.config.monitoringDsn) : undefined;
  const template =
    ctx.config.monitoringUpstream ?? (configured && `https://${configured.host}/api/{p}/envelope/`);
  app.post(
    '/monitoring',
    { schema: { querystring: query, hide: true } },
    async (request, reply) => {
      const target = { organization: request.query.o, project: request.query.p };
      const envelope = checkEnvelope(request.body, target, configured);
      if (template && configured) {
        // Relay without holding the browser: the console never waits on monitoring.
        fetch(upstreamUrl(template, target), {
          method: 'POST',
          headers: { 'content-type': 'application/x-sentry-envelope' },
          body: envelope,
          signal: AbortSignal.timeout(5000),
        }).catch((err: unknown) => request.log.warn({ err }, 'monitoring relay failed'));
      }
      return reply.code(202).send({ accepted: true });
    },
  );
};
