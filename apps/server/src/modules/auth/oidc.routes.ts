import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorBody, oidcExchangeBody, signInResult } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { authService } from './auth.service.js';
import { oidcService } from './oidc.service.js';

const tags = ['Identity'];
const COOKIE = 'oidc_browser';
const COOKIE_PATH = '/v2/auth/oidc';
const param = z.string().max(2048).optional();

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** GET /v2/auth/oidc/start and /callback, POST /v2/auth/oidc/exchange. */
export const oidcRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const auth = authService(ctx);
  const oidc = oidcService(ctx, auth.completeSignIn);
  const secure = ctx.config.publicUrl.startsWith('https://') ? '; Secure' : '';
  // The cookie binds a sign-in to the browser that started it (no login CSRF). Lax: it comes back
  // on the provider's top-level redirect to the callback.
  const setBinding = (reply: FastifyReply, value: string, maxAge: number) =>
    reply.header(
      'set-cookie',
      `${COOKIE}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`,
    );

  app.get(
    '/v2/auth/oidc/start',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Start social sign-in: redirects to the OpenID provider (state, nonce, PKCE)',
        response: { 302: z.null(), 404: errorBody, 503: errorBody },
      },
    },
    async (_request, reply) => {
      const { location, browserBinding } = await oidc.start();
      setBinding(reply, browserBinding, 600);
      return reply.redirect(location, 302);
    },
  );

  app.get(
    '/v2/auth/oidc/callback',
    {
      config: { public: true },
      // The query holds the provider's one-time code: keep it out of the request log.
      logLevel: 'warn',
      schema: {
        tags,
        summary:
          'The provider returns here; redirects to the console’s /login/oidc with a one-time code (or the refusal) in the fragment',
        querystring: z.object({
          code: param,
          state: param,
          iss: param,
          error: param,
          error_description: param,
          session_state: param,
        }),
        response: { 303: z.null(), 400: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const outcome = await oidc.callback(
        request.query,
        readCookie(request.headers.cookie, COOKIE),
      );
      setBinding(reply, '', 0);
      const page = `${ctx.config.publicUrl}/login/oidc`;
      if ('exchangeCode' in outcome)
        return reply.redirect(`${page}#code=${outcome.exchangeCode}`, 303);
      if (outcome.reason) request.log.warn({ reason: outcome.reason }, 'OIDC sign-in failed');
      return reply.redirect(`${page}#error=${outcome.refusal}`, 303);
    },
  );

  app.post(
    '/v2/auth/oidc/exchange',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Swap the one-time code from /login/oidc for the tokens (or the TOTP step)',
        body: oidcExchangeBody,
        response: { 200: signInResult, 400: errorBody, 401: errorBody },
      },
    },
    (request) => oidc.exchange(request.body.code),
  );
};
