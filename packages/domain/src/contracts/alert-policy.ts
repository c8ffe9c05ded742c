import { z } from 'zod';
import { alertPolicy } from '../alert-policy.js';
import { id } from './common.js';

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
