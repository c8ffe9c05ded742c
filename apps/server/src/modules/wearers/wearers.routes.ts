import type { FastifyPluginAsync } from 'fastify';
import { listWearers } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { wearersService } from './wearers.service.js';

/** The wearers the caller may see. */
export const wearersRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const wearers = wearersService(ctx);
  serve(app, listWearers, async (req) => ({
    devices: await wearers.listVisible(req.actor, req.query),
  }));
};
