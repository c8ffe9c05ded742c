import { createLiveTicket } from '@wearable/domain';
import { call } from '../../../lib/endpoint';

/**
 * A single-use pass for one live stream (EventSource cannot send the bearer header, and a token in
 * a URL would be logged). The API client refreshes an expired token first.
 */
export async function fetchLiveTicket(): Promise<string> {
  return (await call(createLiveTicket)).ticket;
}
