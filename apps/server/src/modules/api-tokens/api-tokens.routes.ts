import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiTokenList,
  apiTokenParams,
  createApiTokenBody,
  createdApiToken,
  errorBody,
  personOkResponse,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { apiTokensService } from './api-tokens.service.js';

const tags = ['API tokens'];
const security = [{ bearer: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** One's own API tokens for scripts (docs/api.md "API tokens"). */
export const apiTokensRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tokens = apiTokensService(ctx);

  app.get(
    '/v2/user/apiTokens',
    {
      config: { permission: 'apiToken:manage' },
      schema: {
        tags,
        summary:
          "One's API tokens (never the tokens themselves) and the scopes one may give a new one",
        security,
        response: { 200: apiTokenList, ...errors },
      },
    },
    (request) => tokens.list(request.actor),
  );

  app.post(
    '/v2/user/apiTokens',
    {
      config: { permission: 'apiToken:manage' },
      schema: {
        tags,
        summary:
          'A new API token (shown once): acts as its owner within its scopes, at most a year; never makes tokens or changes people',
        security,
        body: createApiTokenBody,
        response: { 201: createdApiToken, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await tokens.create(request.actor, request.body)),
  );

  app.delete(
    '/v2/user/apiTokens/:tokenId',
    {
      config: { permission: 'apiToken:manage' },
      schema: {
        tags,
        summary: 'Revokes one of one’s API tokens at once, on every server',
        security,
        params: apiTokenParams,
        response: { 200: personOkResponse, ...errors },
      },
    },
    async (request) => {
      await tokens.revoke(request.actor, request.params.tokenId);
      return { ok: true as const };
    },
  );
};
