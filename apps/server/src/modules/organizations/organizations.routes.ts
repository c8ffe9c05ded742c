import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clientInfo,
  clientListResponse,
  clientOverview,
  createClientBody,
  errorBody,
  id,
  updateClientBody,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { organizationsService } from './organizations.service.js';

const tags = ['Identity'];
const security = [{ bearer: [] }];

/** Organisations: list, one, its overview; create and rename (platform staff / owners). */
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

  app.post(
    '/v2/client',
    {
      config: { permission: 'organization:create' },
      schema: {
        tags,
        summary: 'Create an organisation (platform owners)',
        security,
        body: createClientBody,
        response: { 201: clientInfo, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await organizations.create(request.actor, request.body)),
  );

  app.patch(
    '/v2/client/:id',
    {
      config: { permission: 'organization:update' },
      schema: {
        tags,
        summary: 'Rename an organisation or change its time zone',
        security,
        params: z.object({ id }),
        body: updateClientBody,
        response: {
          200: clientInfo,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    (request) => organizations.update(request.actor, request.params.id, request.body),
  );

  app.get(
    '/v2/client/:id/overview',
    {
      config: { permission: 'organization:read' },
      schema: {
        tags,
        summary: 'One organisation at a glance: groups, gateways with status, members, open alerts',
        security,
        params: z.object({ id }),
        response: { 200: clientOverview, 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    (request) => organizations.overview(request.actor, request.params.id),
  );
};
