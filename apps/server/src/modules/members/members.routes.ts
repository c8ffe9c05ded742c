import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, membersQuery, membersResponse } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { membersService } from './members.service.js';

/** GET /v2/user/organization/members. */
export const membersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const members = membersService(ctx);
  app.get(
    '/v2/user/organization/members',
    {
      config: { permission: 'member:read' },
      schema: {
        tags: ['Identity'],
        summary: 'The organisation’s staff (platform roles pass clientId)',
        security: [{ bearer: [] }],
        querystring: membersQuery,
        response: {
          200: membersResponse,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request) => ({
      members: await members.listMembers(request.actor, request.query.clientId),
    }),
  );
};
