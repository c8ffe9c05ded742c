import type { FastifyPluginAsync } from 'fastify';
import { createApiToken, listApiTokens, revokeApiToken } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { apiTokensService } from './api-tokens.service.js';

/** One's own API tokens for scripts (docs/api.md "API tokens"). */
export const apiTokensRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tokens = apiTokensService(ctx);
  serve(app, listApiTokens, (req) => tokens.list(req.actor));
  serve(app, createApiToken, (req) => tokens.create(req.actor, req.body));
  serve(app, revokeApiToken, async (req) => {
    await tokens.revoke(req.actor, req.params.tokenId);
    return { ok: true as const };
  });
};
