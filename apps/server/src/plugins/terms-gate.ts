import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { usersService } from '../modules/users/users.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers a signed-in user who has not agreed to the current terms yet: what the
     * terms modal needs (own record, the agreement), sign-out, the live ticket.
     */
    allowBeforeTerms?: boolean;
  }
}

const API_ROUTE = /^\/v[23]\//;

export const termsNotAgreed = () =>
  new ApiError(
    403,
    'TERMS_NOT_AGREED',
    'Agree to the current terms of use first (POST /v2/user/termsOfUse)',
  );

/**
 * No personal data before the current terms are agreed: every /v2 and /v3 route that needs a
 * signed-in user answers 403 TERMS_NOT_AGREED unless it declares `config: { allowBeforeTerms: true }`.
 * Runs after the auth plugin's hook (registered after it), so the actor is known. The demo scope
 * counts as agreed (the console shows no terms modal there).
 */
const termsGate: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const users = usersService(ctx);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    const config = request.routeOptions.config;
    if (!url || !API_ROUTE.test(url) || config.public || config.allowBeforeTerms) return;
    if (request.isDemo || !request.actor) return;
    if (!(await users.hasAgreedToCurrentTerms(request.actor.uid))) throw termsNotAgreed();
  });
};
// Not encapsulated: the hook applies to every route of the app.
Object.assign(termsGate, { [Symbol.for('skip-override')]: true });

export { termsGate };
