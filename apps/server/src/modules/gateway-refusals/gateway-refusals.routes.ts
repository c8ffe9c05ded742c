import type { FastifyPluginAsync } from 'fastify';
import { listGatewayRefusals } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { gatewayRefusalsService } from './gateway-refusals.service.js';

/** Staff endpoint: what a gateway sent that was refused (the gateway's page). */
export const gatewayRefusalsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const refusals = gatewayRefusalsService(ctx);
  serve(app, listGatewayRefusals, (req) =>
    refusals.list(req.actor, req.params.gatewayId, req.query.withinMinutes),
  );
  ctx.gatewayRefusals.start((err) => ctx.log.error({ err }, 'writing gateway refusals failed'));
};
