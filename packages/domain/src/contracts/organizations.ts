import { z } from 'zod';

/** GET /v2/client (platform roles: every organisation; others: their own). */
export const clientSummary = z.object({
  id: z.string(),
  name: z.string(),
  groupCount: z.number().int(),
  gatewayCount: z.number().int(),
  wearerCount: z.number().int(),
});
export const clientListResponse = z.object({ clients: z.array(clientSummary) });
export type ClientSummary = z.infer<typeof clientSummary>;

/** GET /v2/client/{id}. */
export const clientInfo = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type ClientInfo = z.infer<typeof clientInfo>;
