import type { FastifyPluginAsync } from 'fastify';
import { getClientSetup, sendTestAlert } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { testAlertsService } from '../alerts/test-alerts.service.js';
import { setupService } from './setup.service.js';

/** The setup checklist of an organisation and its last step's test alert. */
export const setupRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const setup = setupService(ctx);
  const testAlerts = testAlertsService(ctx);
  serve(app, getClientSetup, (req) => setup.progress(req.actor, req.params.id));
  serve(app, sendTestAlert, (req) => testAlerts.open(req.actor, req.params.id, req.body.uid));
};
