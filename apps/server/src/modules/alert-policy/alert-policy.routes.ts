import type { FastifyPluginAsync } from 'fastify';
import { getAlertPolicy, updateAlertPolicy } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { alertPolicyService } from './alert-policy.service.js';

/** The organisation's alert policy: recovery window, notice grouping, repeat and caps, site heat hysteresis. */
export const alertPolicyRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const policies = alertPolicyService(ctx);
  serve(app, getAlertPolicy, (req) => policies.get(req.actor, req.params.organizationId));
  serve(app, updateAlertPolicy, (req) =>
    policies.update(req.actor, req.params.organizationId, req.body),
  );
};
