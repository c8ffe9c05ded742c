import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientInfo, clientListResponse, errorBody, id } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { organizationsService } from './organizations.service.js';

const tags = ['Identity'];
const security = [{ bearer: [] }];

/** GET /v2/client, GET /v2/client/{id}. */
export const organizationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const organizations = organizationsService(ctx);

  app.get(
    '/v2/client',
    {
      config: { permission: 'organization:read' },
      schema: {
        tags,
        summary: 'Organisations the caller may see',
        security,
        response: { 200: clientListResponse, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => ({ clients: await organizations.listClients(request.actor) }),
  );

  app.get(
    '/v2/client/:id',
    {
      config: { permission: 'organization:read' },
      schema: {
        tags,
        summary: 'One organisation with its groups',
        security,
        params: z.object({ id }),
        response: { 200: clientInfo, 401: errorBody, 404: errorBody },
      },
    },
    (request) => organizations.clientInfo(request.actor, request.params.id),
  );
};
