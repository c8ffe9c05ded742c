import { getMonthlyReportCsv } from '@wearable/domain';
import { downloadFile } from '../../../lib/download-file';

/** The month as CSV for Excel (UTF-8 with BOM, CRLF), in the reader's language. */
export function downloadMonthlyReportCsv(
  uid: string,
  month: string,
  lng: 'ja' | 'en',
  demo: boolean,
) {
  return downloadFile(
    getMonthlyReportCsv,
    { query: { uid, month, lng } },
    demo,
    `monthly-report-${month}.csv`,
  );
}
