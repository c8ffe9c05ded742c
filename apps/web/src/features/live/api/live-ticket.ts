import type { LiveTicketResponse } from '@wearable/domain';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/**
 * POST /v3/live/ticket: a single-use pass for one GET /v3/live (EventSource cannot send the bearer
 * header, and a token in a URL would be logged). The API client refreshes an expired token first.
 */
export async function fetchLiveTicket(): Promise<string> {
  return unwrap(await api.post<LiveTicketResponse>('/v3/live/ticket')).ticket;
}
