import { downloadApiFile } from '../../../lib/download-file';

/** GET /v2/device/monthlyReportCsv?uid=&month=&lng=: the month as CSV for Excel (UTF-8 with BOM, CRLF), in the reader's language. */
export function downloadMonthlyReportCsv(
  uid: string,
  month: string,
  lng: 'ja' | 'en',
  demo: boolean,
) {
  const query = new URLSearchParams({ uid, month, lng });
  return downloadApiFile(
    `/v2/device/monthlyReportCsv?${query.toString()}`,
    demo,
    `monthly-report-${month}.csv`,
  );
}
