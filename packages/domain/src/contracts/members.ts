import { z } from 'zod';
import { ROLES } from '../roles.js';

/** GET /v2/user/organization/members?clientId=: the organisation's staff. */
export const membersQuery = z.object({ clientId: z.string().min(1).max(64).optional() });
export const member = z.object({
  uid: z.string(),
  name: z.string(),
  mail: z.string().nullable(),
  role: z.enum(ROLES),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type Member = z.infer<typeof member>;
export const membersResponse = z.object({ members: z.array(member) });
