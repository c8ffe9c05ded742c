import { z } from 'zod';
import { alertPolicy, alertPolicyPatch } from '../alert-policy.js';
import { id } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

/** A path that names an organisation: `/v2/organization/{organizationId}/…`. */
export const organizationIdParams = z.object({ organizationId: id });

/**
 * GET and PATCH /v2/organization/{organizationId}/alertPolicy: the organisation's alert policy
 * completed with the defaults, the defaults themselves (so the console can say what a value
 * replaces), and who changed it last (null while it is all defaults).
 */
export const alertPolicyResponse = z.object({
  organizationId: z.string(),
  policy: alertPolicy,
  defaults: alertPolicy,
  updatedAt: z.string().nullable(),
  updatedBy: z.object({ uid: z.string(), name: z.string() }).nullable(),
});
export type AlertPolicyResponse = z.infer<typeof alertPolicyResponse>;

const policyEndpoint = endpointsOf({ tags: ['Alert policy'], errors: BEARER_ERRORS });

export const getAlertPolicy = policyEndpoint({
  method: 'GET',
  path: '/v2/organization/{organizationId}/alertPolicy',
  permission: 'alertPolicy:read',
  summary:
    "The organisation's alert policy completed with the defaults, the defaults, and who changed it last",
  params: organizationIdParams,
  responses: { 200: alertPolicyResponse },
});

export const updateAlertPolicy = policyEndpoint({
  method: 'PATCH',
  path: '/v2/organization/{organizationId}/alertPolicy',
  permission: 'alertPolicy:update',
  summary:
    'Change some settings of the alert policy (merged over the stored policy, validated whole, audited)',
  params: organizationIdParams,
  body: alertPolicyPatch,
  responses: { 200: alertPolicyResponse },
});
