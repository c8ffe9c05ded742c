import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBody,
  termsAgreement,
  termsOfUseBody,
  userInfo,
  userLookupQuery,
  userLookupResponse,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { lookupUsers } from './user-lookup.repository.js';
import { usersService } from './users.service.js';

const tags = ['Identity'];
const security = [{ bearer: [] }];

/** GET /v2/user, POST /v2/user/termsOfUse, GET /v2/users (/users). */
export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const users = usersService(ctx);

  app.get(
    '/v2/user',
    {
      config: { permission: 'self:read', allowBeforeTerms: true },
      schema: {
        tags,
        summary: 'The signed-in user',
        security,
        response: { 200: userInfo, 401: errorBody },
      },
    },
    (request) => users.userInfo(request.actor, { demo: request.isDemo }),
  );

  app.post(
    '/v2/user/termsOfUse',
    {
      config: { permission: 'self:update', allowBeforeTerms: true },
      schema: {
        tags,
        summary: 'Agree to the terms of use',
        security,
        body: termsOfUseBody,
        response: { 200: termsAgreement, 400: errorBody, 401: errorBody },
      },
    },
    (request) => users.agreeToTerms(request.actor, request.body.version),
  );

  app.get(
    '/v2/users',
    {
      config: { permission: 'user:lookup' },
      schema: {
        tags,
        summary:
          'Find any user across organisations by name, email or phone (platform staff), paged',
        security,
        querystring: userLookupQuery,
        response: { 200: userLookupResponse, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      accessService(ctx.db).requirePlatform(request.actor, 'user:lookup');
      const { q, page, pageSize } = request.query;
      return {
        ...(await lookupUsers(ctx.db, q || undefined, pageSize, (page - 1) * pageSize)),
        page,
        pageSize,
      };
    },
  );
};
