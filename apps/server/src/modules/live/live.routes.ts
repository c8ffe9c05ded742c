import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Actor } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { unauthorized } from '../../errors.js';
import { actorRepository } from '../auth/actor.repository.js';
import { getTokenService } from '../auth/token.service.js';
import { liveHub } from './live.hub.js';

/**
 * GET /v3/live: server-sent events `alert` and `summary` for what the caller may see.
 * The token comes from `Authorization: Bearer` or, because a browser EventSource cannot set
 * headers, from `?access_token=` (short-lived access token; never a refresh token).
 */
export const liveRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const hub = liveHub(ctx, app.log);
  const tokens = getTokenService(ctx);
  const actors = actorRepository(ctx.db);

  async function actorOf(request: FastifyRequest): Promise<Actor> {
    const header = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const query = (request.query as Record<string, unknown>).access_token;
    const token = header ?? (typeof query === 'string' ? query : undefined);
    if (!token) throw unauthorized('Give the access token as "Authorization: Bearer" or ?access_token=');
    const claims = await tokens.verifyAccessToken(token);
    if (!claims) throw unauthorized('The access token is invalid or expired', 'INVALID_TOKEN');
    const actor = await actors.findSessionActor(claims.uid, claims.sessionId, ctx.now());
    if (!actor) throw unauthorized('The session has ended; sign in again', 'INVALID_TOKEN');
    return actor;
  }

  app.get(
    '/v3/live',
    {
      // Authenticated here, not by the auth hook, so that ?access_token= works.
      config: { public: true },
      schema: { tags: ['Live stream'], produces: ['text/event-stream'] },
    },
    async (request, reply) => {
      const actor = await actorOf(request);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies such as nginx would otherwise buffer the stream.
        'x-accel-buffering': 'no',
      });
      res.write(`retry: 3000\n: connected\n\n`);
      const remove = hub.add(actor, res);
      request.raw.on('close', remove);
    },
  );

  app.addHook('preClose', async () => hub.close());
};
