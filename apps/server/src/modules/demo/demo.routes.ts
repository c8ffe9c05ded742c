import type { FastifyPluginAsync } from 'fastify';
import { getDemoStatus, removeDemoData } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { demoService } from './demo.service.js';

/** Whether the demo is here (the console's ribbon) and its removal (platform owners). */
export const demoRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const demo = demoService(ctx);
  serve(app, getDemoStatus, (req) => demo.status(req.actor));
  serve(app, removeDemoData, (req) => demo.remove(req.actor));
};
