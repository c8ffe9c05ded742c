import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type Actor, holds, type Permission } from '@wearable/domain';
import type { AppContext } from '../context.js';
import { ApiError, forbidden, notFound, unauthorized } from '../errors.js';
import { apiTokensRepository } from '../modules/api-tokens/api-tokens.repository.js';
import { API_TOKEN_PREFIX, hashApiToken } from '../modules/api-tokens/api-tokens.service.js';
import { auditRepository } from '../modules/audit/audit.repository.js';
import { actorRepository } from '../modules/auth/actor.repository.js';
import { maskContacts, maskContactText } from '../modules/auth/demo-mask.js';
import { isDemoRequest } from '../modules/auth/demo-scope.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is acting. Set on every /v2 and /v3 route that is not `config: { public: true }`. */
    actor: Actor;
    /** The refresh-token family of the access token (null in the demo scope). */
    sessionId: string | null;
    /** A /demo-api request: read-only, acting as the demo organisation's owner. */
    isDemo: boolean;
    /** The API token the request came with (its use is audited), or null. */
    apiToken: { id: string; name: string } | null;
  }
  interface FastifyContextConfig {
    /** The route needs no bearer token (sign-in, refresh, the OpenAPI document). */
    public?: boolean;
    /**
     * What the route does, in the domain's permission words. Every non-public /v2 and /v3 route
     * declares one: a route without it is refused (fail closed), and a caller whose role never
     * holds it gets 403 before the handler runs. The service then checks it on the resource.
     */
    permission?: Permission;
  }
}

// API routes are protected unless they opt out, so a forgotten flag fails closed.
const API_ROUTE = /^\/v[23]\//;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1])
    throw unauthorized('The Authorization header must be "Bearer <token>"', 'INVALID_TOKEN');
  return match[1];
}

function requireHeld(actor: Actor, permission: Permission): void {
  if (holds(actor, permission)) return;
  throw forbidden(
    actor.scopes === undefined
      ? `Your role may not do ${permission}`
      : `This API token may not do ${permission}`,
  );
}

/** Verifies the bearer token (or applies the demo scope) and sets request.actor. */
const authPlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app: FastifyInstance,
  { ctx },
) => {
  const tokens = ctx.tokens;
  const actors = actorRepository(ctx.db);
  const cache = ctx.identityCache;
  // Fail closed at start too: an API route without a permission (or `public`) stops the server.
  app.addHook('onRoute', (route) => {
    if (API_ROUTE.test(route.url) && !route.config?.public && !route.config?.permission) {
      throw new Error(
        `${String(route.method)} ${route.url} declares no permission (config.permission)`,
      );
    }
  });
  app.decorateRequest('actor', null as unknown as Actor);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('isDemo', false);
  app.decorateRequest('apiToken', null);
  const apiTokens = apiTokensRepository(ctx.db);
  const lastTouched = new Map<string, number>();
  // Sessions or a token revoked on any server: who they belonged to is forgotten here at once.
  const forget = () => cache.bump();
  ctx.bus.on('sessions.revoked', forget);
  app.addHook('onClose', async () => {
    ctx.bus.off('sessions.revoked', forget);
  });
  // Every use of an API token is in the audit log, as "via token <name>" (its last use too).
  app.addHook('onResponse', async (request, reply) => {
    const token = request.apiToken;
    if (!token) return;
    try {
      await auditRepository(ctx.db).recordAudit({
        organizationId: request.actor.organizationId,
        actorId: request.actor.uid,
        kind: 'apiToken.use',
        targetId: token.id,
        after: {
          via: `token ${token.name}`,
          method: request.method,
          route: request.routeOptions.url ?? null,
          status: reply.statusCode,
        },
      });
    } catch (err) {
      request.log.error({ err }, 'recording an API token use failed');
    }
  });

  // The public demo never shows a real contact (demo-mask.ts).
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.isDemo || typeof payload !== 'string') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.includes('json')) return JSON.stringify(maskContacts(JSON.parse(payload)));
    if (type.startsWith('text/')) return maskContactText(payload);
    return payload;
  });

  app.addHook('onRequest', async (request) => {
    if (isDemoRequest(request.raw)) {
      request.isDemo = true;
      if (!READ_METHODS.has(request.method)) {
        throw new ApiError(403, 'DEMO_READ_ONLY', 'The demo is read-only');
      }
    }
    const url = request.routeOptions.url;
    const { public: isPublic, permission } = request.routeOptions.config;
    if (!url || !API_ROUTE.test(url) || isPublic) return;
    if (!permission) {
      request.log.error({ route: url }, 'route declares no permission; refused');
      throw forbidden('This route declares no permission', 'ROUTE_WITHOUT_PERMISSION');
    }

    if (request.isDemo) {
      const owner = await cache.get('demo-owner', () => actors.findDemoOwner());
      if (!owner) throw notFound('No demo organisation is set up', 'DEMO_NOT_AVAILABLE');
      request.actor = owner;
      requireHeld(owner, permission);
      return;
    }
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    if (token.startsWith(API_TOKEN_PREFIX)) {
      const hash = hashApiToken(token);
      const found = await cache.get(`api-token:${hash}`, () =>
        apiTokens.findTokenActor(hash, ctx.now()),
      );
      if (!found)
        throw unauthorized('The API token is invalid, expired or revoked', 'INVALID_TOKEN');
      request.actor = found.actor;
      request.apiToken = found.token;
      // Its last use, written at most every 10 s per token (a script may call many times a second).
      const now = ctx.now().getTime();
      if (now - (lastTouched.get(found.token.id) ?? 0) >= 10_000) {
        if (lastTouched.size > 10_000) lastTouched.clear();
        lastTouched.set(found.token.id, now);
        await apiTokens.touch(found.token.id, new Date(now));
      }
      requireHeld(found.actor, permission);
      return;
    }
    const claims = await tokens.verifyAccessToken(token);
    if (!claims) throw unauthorized('The access token is invalid or expired', 'INVALID_TOKEN');
    const actor = await cache.get(`session:${claims.uid}:${claims.sessionId}`, () =>
      actors.findSessionActor(claims.uid, claims.sessionId, ctx.now()),
    );
    if (!actor) throw unauthorized('The session has ended; sign in again', 'INVALID_TOKEN');
    request.actor = actor;
    request.sessionId = claims.sessionId;
    requireHeld(actor, permission);
  });
};
// Not encapsulated: the hook and decorators apply to every route of the app.
Object.assign(authPlugin, { [Symbol.for('skip-override')]: true });

export { authPlugin };
