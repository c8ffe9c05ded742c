import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  environmentHistoryQuery,
  environmentHistoryResponse,
  deleteGatewayResponse,
  errorBody,
  gatewayDetail,
  gatewayListItem,
  gatewayListQuery,
  gatewayListResponse,
  gatewayParams,
  id,
  registerGateway,
  rotateGatewayCredential,
  updateGatewayBody,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { gatewaysService } from './gateways.service.js';

const tags = ['Fleet'];
const security = [{ bearer: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Gateways: register (credential once), rotate the credential, rename/move, status and environment. */
export const gatewaysRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const gateways = gatewaysService(ctx);

  serve(app, registerGateway, async (request, reply) =>
    reply.code(201).send(await gateways.register(request.actor, request.body)),
  );
  serve(app, rotateGatewayCredential, (request) =>
    gateways.rotate(request.actor, request.params.gatewayId),
  );

  app.delete(
    '/v2/gateway/:gatewayId',
    {
      config: { permission: 'gateway:manage' },
      schema: {
        tags,
        summary:
          'Retire a gateway: its credential is refused at once; its bracelets stay with their wearers, linked to no gateway',
        security,
        params: gatewayParams,
        response: { 200: deleteGatewayResponse, ...errors },
      },
    },
    (request) => gateways.remove(request.actor, request.params.gatewayId),
  );

  app.patch(
    '/v2/gateway/:gatewayId',
    {
      config: { permission: 'gateway:manage' },
      schema: {
        tags,
        summary: 'Rename a gateway or move it to another group',
        security,
        params: gatewayParams,
        body: updateGatewayBody,
        response: { 200: gatewayListItem, ...errors },
      },
    },
    (request) => gateways.update(request.actor, request.params.gatewayId, request.body),
  );

  app.get(
    '/v2/client/:clientId/gateways',
    {
      config: { permission: 'gateway:read' },
      schema: {
        tags,
        summary: "An organisation's gateways with their status",
        security,
        params: z.object({ clientId: id }),
        querystring: gatewayListQuery,
        response: { 200: gatewayListResponse, ...errors },
      },
    },
    async (request) => ({
      gateways: await gateways.list(request.actor, request.params.clientId, request.query.groupId),
    }),
  );

  app.get(
    '/v2/gateway/:gatewayId',
    {
      config: { permission: 'gateway:read' },
      schema: {
        tags,
        summary: 'One gateway: status, bracelets behind it, latest environment',
        security,
        params: gatewayParams,
        response: { 200: gatewayDetail, ...errors },
      },
    },
    (request) => gateways.detail(request.actor, request.params.gatewayId),
  );

  app.get(
    '/v2/gateway/:gatewayId/environment',
    {
      config: { permission: 'gateway:read' },
      schema: {
        tags,
        summary:
          "The gateway's temperature, humidity and WBGT over a period (default the last 24 h)",
        security,
        params: gatewayParams,
        querystring: environmentHistoryQuery,
        response: { 200: environmentHistoryResponse, ...errors },
      },
    },
    (request) => gateways.environment(request.actor, request.params.gatewayId, request.query),
  );
};
