import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { createLiveTicket, LIVE_TICKET_TTL_SECONDS, openLiveStream } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { unauthorized } from '../../errors.js';
import { serve } from '../../http/serve.js';
import { sessionsService } from '../auth/sessions.service.js';
import { termsNotAgreed } from '../../plugins/terms-gate.js';
import { usersService } from '../users/users.service.js';
import { liveHub } from './live.hub.js';
import { liveSessionGuard, type StreamSession } from './live-sessions.js';
import { type LiveTicketGrant, liveTickets } from './live-tickets.js';

const bearerOf = (request: FastifyRequest) =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];

/**
 * GET /v3/live: server-sent events `alert` and `summary` for what the caller may see.
 * Authenticated by `Authorization: Bearer`, or, because a browser EventSource cannot set
 * headers, by a single-use ticket from POST /v3/live/ticket: a token in a URL ends up in logs.
 * The stream ends when its session ends or its access token expires (live-sessions.ts).
 */
export const liveRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const hub = liveHub(ctx, app.log);
  const guard = liveSessionGuard(ctx, app.log);
  const tokens = ctx.tokens;
  const actors = sessionsService(ctx);
  const tickets = liveTickets(ctx.db);
  const users = usersService(ctx);

  async function grantOf(
    request: FastifyRequest,
    ticket: string | undefined,
  ): Promise<LiveTicketGrant> {
    const token = bearerOf(request);
    if (token) {
      const claims = await tokens.verifyAccessToken(token);
      if (!claims) throw unauthorized('The access token is invalid or expired', 'INVALID_TOKEN');
      return { uid: claims.uid, sessionId: claims.sessionId, accessExpiresAt: claims.expiresAt };
    }
    if (!ticket)
      throw unauthorized('Give "Authorization: Bearer" or ?ticket= from POST /v3/live/ticket');
    const grant = await tickets.redeem(ticket, ctx.now());
    if (!grant)
      throw unauthorized('The ticket is unknown, used or expired; get a new one', 'INVALID_TICKET');
    return grant;
  }

  serve(app, createLiveTicket, async (request) => {
    // The auth hook checked the session; the token's own expiry bounds the stream.
    const claims = await tokens.verifyAccessToken(bearerOf(request) ?? '');
    if (!claims) throw unauthorized('The access token is invalid or expired', 'INVALID_TOKEN');
    const ticket = await tickets.issue(
      { uid: claims.uid, sessionId: claims.sessionId, accessExpiresAt: claims.expiresAt },
      ctx.now(),
    );
    return { ticket, expiresIn: LIVE_TICKET_TTL_SECONDS };
  });

  serve(app, openLiveStream, async (request, reply) => {
    // Not a validated query schema: without a valid token every odd ticket is just a 401.
    const ticket = (request.query as Record<string, unknown>).ticket;
    const grant = await grantOf(
      request,
      typeof ticket === 'string' ? ticket.slice(0, 128) : undefined,
    );
    const actor = await actors.findSessionActor(grant.uid, grant.sessionId, ctx.now());
    if (!actor) throw unauthorized('The session has ended; sign in again', 'INVALID_TOKEN');
    // A public route, so the terms gate's hook does not see it: the same rule, here.
    if (!(await users.hasAgreedToCurrentTerms(actor.uid))) throw termsNotAgreed();
    const session: StreamSession = {
      sessionId: grant.sessionId,
      expiresAt: grant.accessExpiresAt,
    };
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      // The security headers set so far (a hijacked reply does not send them itself).
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      // Proxies such as nginx would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 3000\n: connected\n\n`);
    const removeFromHub = hub.add(actor, res);
    const unguard = guard.add(session, () => res.end());
    request.raw.on('close', () => {
      removeFromHub();
      unguard();
    });
    return reply;
  });

  app.addHook('preClose', async () => {
    guard.close();
    hub.close();
  });
};
