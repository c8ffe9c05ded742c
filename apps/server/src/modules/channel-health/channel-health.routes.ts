import type { FastifyPluginAsync } from 'fastify';
import { getChannelHealth } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { channelHealthService } from './channel-health.service.js';

/** Each channel's last delivery, last failure and its reason (issue 38 item 4). */
export const channelHealthRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const health = channelHealthService(ctx);
  serve(app, getChannelHealth, (req) => health.get(req.actor, req.params.organizationId));
};
