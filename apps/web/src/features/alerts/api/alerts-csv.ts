import { listAlertsCsv } from '@wearable/domain';
import { downloadFile } from '../../../lib/download-file';
import type { AlertQuery } from './alert-filters';

/** The filtered alerts as CSV, saved under the server's file name with its bytes untouched. */
export function downloadAlertsCsv(
  query: AlertQuery,
  demo: boolean,
): Promise<{ ok: boolean; status: number }> {
  return downloadFile(listAlertsCsv, { query }, demo, 'alerts.csv');
}
