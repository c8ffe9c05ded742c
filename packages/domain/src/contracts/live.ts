import { z } from 'zod';

/** POST /v3/live/ticket: a single-use pass for one GET /v3/live?ticket=… (an EventSource cannot send headers). */
export const liveTicketResponse = z.object({
  ticket: z.string(),
  /** Seconds the ticket stays usable. */
  expiresIn: z.number().int(),
});
export type LiveTicketResponse = z.infer<typeof liveTicketResponse>;
