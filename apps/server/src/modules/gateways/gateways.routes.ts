import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deleteGateway,
  getGateway,
  getGatewayEnvironment,
  listGateways,
  registerGateway,
  rotateGatewayCredential,
  updateGateway,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { gatewaysService } from './gateways.service.js';

/** Gateways: register (credential once), rotate the credential, rename/move, status and environment. */
export const gatewaysRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const gateways = gatewaysService(ctx);

  serve(app, registerGateway, async (request, reply) =>
    reply.code(201).send(await gateways.register(request.actor, request.body)),
  );
  serve(app, rotateGatewayCredential, (request) =>
    gateways.rotate(request.actor, request.params.gatewayId),
  );

  serve(app, deleteGateway, (req) => gateways.remove(req.actor, req.params.gatewayId));
  serve(app, updateGateway, (req) => gateways.update(req.actor, req.params.gatewayId, req.body));
  serve(app, listGateways, async (req) => ({
    gateways: await gateways.list(req.actor, req.params.clientId, req.query.groupId),
  }));
  serve(app, getGateway, (req) => gateways.detail(req.actor, req.params.gatewayId));
  serve(app, getGatewayEnvironment, (req) =>
    gateways.environment(req.actor, req.params.gatewayId, req.query),
  );
};
