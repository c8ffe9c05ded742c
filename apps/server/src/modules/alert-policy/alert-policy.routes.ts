import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  alertPolicyPatch,
  alertPolicyResponse,
  errorBody,
  organizationIdParams,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { alertPolicyService } from './alert-policy.service.js';

const tags = ['Alert policy'];
const security = [{ bearer: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** The organisation's alert policy: recovery window, notice grouping, repeat and caps, site heat hysteresis. */
export const alertPolicyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const policies = alertPolicyService(ctx);

  app.get(
    '/v2/organization/:organizationId/alertPolicy',
    {
      config: { permission: 'alertPolicy:read' },
      schema: {
        tags,
        summary:
          "The organisation's alert policy completed with the defaults, the defaults, and who changed it last",
        security,
        params: organizationIdParams,
        response: { 200: alertPolicyResponse, ...errors },
      },
    },
    (request) => policies.get(request.actor, request.params.organizationId),
  );

  app.patch(
    '/v2/organization/:organizationId/alertPolicy',
    {
      config: { permission: 'alertPolicy:update' },
      schema: {
        tags,
        summary:
          'Change some settings of the alert policy (merged over the stored policy, validated whole, audited)',
        security,
        params: organizationIdParams,
        body: alertPolicyPatch,
        response: { 200: alertPolicyResponse, ...errors },
      },
    },
    (request) => policies.update(request.actor, request.params.organizationId, request.body),
  );
};
