import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, termsAgreement, termsOfUseBody, userInfo } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { usersService } from './users.service.js';

const tags = ['Identity'];
const security = [{ bearer: [] }];

/** GET /v2/user, POST /v2/user/termsOfUse. */
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
};
