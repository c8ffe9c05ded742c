import type { ResponseTimesResponse } from '@wearable/domain';
import { ALERT_TYPE_LABELS, type Lang } from './alert-labels.js';
import { csvCell } from './alerts-csv.js';

const BOM = '\uFEFF';

/** The words of the /alert-histories response-time panel (web locale alerts.responseTimes.*). */
export const RESPONSE_TIMES_WORDS: Record<
  Lang,
  { headers: string[]; allMonths: string; allTypes: string }
> = {
  ja: {
    headers: [
      '月',
      '種別',
      '件数',
      '通知まで 中央値(秒)',
      '通知まで 90%(秒)',
      '配信まで 中央値(秒)',
      '配信まで 90%(秒)',
      '確認まで 中央値(秒)',
      '確認まで 90%(秒)',
    ],
    allMonths: '全期間',
    allTypes: 'すべての種別',
  },
  en: {
    headers: [
      'Month',
      'Type',
      'Alerts',
      'To notice, median (s)',
      'To notice, 90% (s)',
      'To delivery, median (s)',
      'To delivery, 90% (s)',
      'To confirmation, median (s)',
      'To confirmation, 90% (s)',
    ],
    allMonths: 'Whole period',
    allTypes: 'All types',
  },
};

/** Response-time figures as UTF-8 CSV with BOM: one line per month and type, then the totals. */
export function responseTimesCsv(r: ResponseTimesResponse, lang: Lang): string {
  const w = RESPONSE_TIMES_WORDS[lang];
  const lines = [w.headers.map(csvCell).join(',')];
  for (const row of r.rows) {
    lines.push(
      [
        row.month ?? w.allMonths,
        row.type ? ALERT_TYPE_LABELS[lang][row.type] : w.allTypes,
        row.alerts,
        row.toNotice.medianSeconds,
        row.toNotice.p90Seconds,
        row.toDelivery.medianSeconds,
        row.toDelivery.p90Seconds,
        row.toConfirm.medianSeconds,
        row.toConfirm.p90Seconds,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return BOM + lines.join('\r\n') + '\r\n';
}
