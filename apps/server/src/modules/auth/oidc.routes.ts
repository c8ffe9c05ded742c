import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { exchangeOidcCode, oidcCallback, startOidc } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { authService } from './auth.service.js';
import { oidcService } from './oidc.service.js';

const COOKIE = 'oidc_browser';
const COOKIE_PATH = '/v2/auth/oidc';

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** GET /v2/auth/oidc/start and /callback, POST /v2/auth/oidc/exchange. */
export const oidcRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
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

  serve(app, startOidc, async (_request, reply) => {
    const { location, browserBinding } = await oidc.start();
    setBinding(reply, browserBinding, 600);
    return reply.redirect(location, 302);
  });

  serve(
    app,
    oidcCallback,
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
    // The query holds the provider's one-time code: keep it out of the request log.
    { logLevel: 'warn' },
  );

  serve(app, exchangeOidcCode, (request) => oidc.exchange(request.body.code));
};
