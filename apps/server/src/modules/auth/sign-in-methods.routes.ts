import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type SignInMethods, signInMethods } from '@wearable/domain';
import type { AppContext } from '../../context.js';

/** GET /v2/auth/methods: what the login page offers on this server. */
export const signInMethodsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const methods: SignInMethods['methods'] = [{ kind: 'password' }];
  if (ctx.config.oidc) {
    methods.push({
      kind: 'oidc',
      displayName: ctx.config.oidc.displayName,
      startUrl: '/v2/auth/oidc/start',
    });
  }

  app.get(
    '/v2/auth/methods',
    {
      config: { public: true },
      schema: {
        tags: ['Identity'],
        summary: 'The sign-in methods this server offers',
        response: { 200: signInMethods },
      },
    },
    () => ({ methods }),
  );
};
