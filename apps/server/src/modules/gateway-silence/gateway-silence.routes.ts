import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getIngestionStatus } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { gatewaySilenceService } from './gateway-silence.service.js';

/** GET /v2/client/{clientId}/ingestionStatus (the console's "data has stopped" banner). */
export const gatewaySilenceRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const silences = gatewaySilenceService(ctx);
  serve(app, getIngestionStatus, (req) => silences.status(req.actor, req.params.clientId));
  return Promise.resolve();
};
