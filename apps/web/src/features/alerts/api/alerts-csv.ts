import { listAlertsCsv } from '@wearable/domain';
import { downloadApiFile } from '../../../lib/download-file';
import type { AlertQuery } from './alert-filters';

/**
 * A CSV of the alerts API (the filtered alerts by default; the response-time figures or the heat
 * rule's report by their endpoint's path), saved under the server's file name with its bytes untouched.
 */
export function downloadAlertsCsv(
  query: AlertQuery,
  demo: boolean,
  path: string = listAlertsCsv.path,
): Promise<{ ok: boolean; status: number }> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.set(key, String(value));
  return downloadApiFile(`${path}?${params.toString()}`, demo, 'alerts.csv');
}
