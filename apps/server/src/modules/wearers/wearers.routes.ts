import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, wearerListQuery, wearerListResponse } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { wearersService } from './wearers.service.js';

/** GET /v2/user/device/list. */
export const wearersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const wearers = wearersService(ctx);
  app.get(
    '/v2/user/device/list',
    {
      config: { permission: 'wearer:read' },
      schema: {
        tags: ['Identity'],
        summary: 'Wearers the caller may see, sorted by name (Japanese collation)',
        security: [{ bearer: [] }],
        querystring: wearerListQuery,
        response: { 200: wearerListResponse, 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => ({ devices: await wearers.listVisible(request.actor, request.query) }),
  );
};
