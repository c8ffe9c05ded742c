import { z } from 'zod';
import { endpointsOf } from './endpoint.js';

/** How long a stream ticket may wait to be used. */
export const LIVE_TICKET_TTL_SECONDS = 30;

/** POST /v3/live/ticket: a single-use pass for one GET /v3/live?ticket=… (an EventSource cannot send headers). */
export const liveTicketResponse = z.object({
  ticket: z.string(),
  /** Seconds the ticket stays usable. */
  expiresIn: z.number().int(),
});
export type LiveTicketResponse = z.infer<typeof liveTicketResponse>;

const live = endpointsOf({ tags: ['Live stream'], errors: [401] });

export const createLiveTicket = live({
  method: 'POST',
  path: '/v3/live/ticket',
  permission: 'wearer:read',
  // The console opens its stream while the terms modal is shown; the stream itself waits for them.
  allowBeforeTerms: true,
  summary: `A single-use ticket for GET /v3/live?ticket=…, valid ${LIVE_TICKET_TTL_SECONDS} s`,
  responses: { 200: liveTicketResponse },
});

/**
 * Authenticated by the handler, not by the auth hook: `Authorization: Bearer`, or `?ticket=` from
 * the ticket endpoint (a browser EventSource cannot set headers). The ticket is read unvalidated:
 * without a valid token every odd ticket is just a 401.
 */
export const openLiveStream = live({
  method: 'GET',
  path: '/v3/live',
  permission: 'public',
  optionalBearer: true,
  summary: 'Server-sent events; Authorization: Bearer, or ?ticket= from POST /v3/live/ticket',
  responses: { 200: z.string() },
  errors: [401, 403],
  raw: true,
  produces: ['text/event-stream'],
});
