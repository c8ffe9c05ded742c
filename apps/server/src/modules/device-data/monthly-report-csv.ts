import { ALERT_TYPES, type MonthlyReportResponse } from '@wearable/domain';
import { ALERT_TYPE_LABELS, type Lang } from '../alerts/alerts.service.js';
import { csvCell } from '../alerts/alerts.service.js';

const BOM = '\uFEFF';

const HEADERS: Record<Lang, string[]> = {
  ja: [
    '日付',
    '平均心拍数(bpm)',
    '最低心拍数(bpm)',
    '最高心拍数(bpm)',
    '平均皮膚温(℃)',
    '最高皮膚温(℃)',
    '歩数',
    '装着時間(分)',
    '深い睡眠(分)',
    '浅い睡眠(分)',
    '不安定な睡眠(分)',
    '覚醒(分)',
    'ストレスなし(時間)',
    'ストレス低(時間)',
    'ストレス中(時間)',
    'ストレス高(時間)',
    'ストレス過負荷(時間)',
    'アラート合計',
  ],
  en: [
    'Date',
    'Mean heart rate (bpm)',
    'Lowest heart rate (bpm)',
    'Highest heart rate (bpm)',
    'Mean skin temperature (°C)',
    'Highest skin temperature (°C)',
    'Steps',
    'Worn (min)',
    'Deep sleep (min)',
    'Light sleep (min)',
    'Restless sleep (min)',
    'Awake (min)',
    'Stress none (h)',
    'Stress low (h)',
    'Stress medium (h)',
    'Stress high (h)',
    'Stress overload (h)',
    'Alerts total',
  ],
};
const TOTAL: Record<Lang, string> = { ja: '合計', en: 'Total' };

type Figures = MonthlyReportResponse['totals'];

function cells(label: string, f: Figures): (string | number | null)[] {
  const alerts = ALERT_TYPES.map((type) => f.alerts[type] ?? 0);
  return [
    label,
    f.heartRate.avg,
    f.heartRate.min,
    f.heartRate.max,
    f.skinTemperature.avg,
    f.skinTemperature.max,
    f.steps,
    f.wornMinutes,
    f.sleepMinutes.DEEP_SLEEP,
    f.sleepMinutes.LIGHT_SLEEP,
    f.sleepMinutes.RESTLESS_SLEEP,
    f.sleepMinutes.AWAKE,
    f.stressHours.NONE,
    f.stressHours.LOW,
    f.stressHours.MEDIUM,
    f.stressHours.HIGH,
    f.stressHours.OVERLOAD,
    alerts.reduce((a, b) => a + b, 0),
    ...alerts,
  ];
}

/**
 * The monthly report as CSV for Excel: UTF-8 with BOM (Excel reads Japanese correctly only with it), CRLF, one row
 * per local day (dates YYYY-MM-DD in the organisation's zone) and a total row; empty cells where nothing was measured.
 */
export function monthlyReportCsv(report: MonthlyReportResponse, lang: Lang): string {
  const header = [...HEADERS[lang], ...ALERT_TYPES.map((type) => ALERT_TYPE_LABELS[lang][type])];
  const lines = [header.map(csvCell).join(',')];
  for (const day of report.days) lines.push(cells(day.date, day).map(csvCell).join(','));
  lines.push(cells(TOTAL[lang], report.totals).map(csvCell).join(','));
  return BOM + lines.join('\r\n') + '\r\n';
}

/** ASCII only (a uid may hold anything): the name the download is saved under. */
export const monthlyReportFileName = (uid: string, month: string) =>
  `monthly-report-${uid.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)}-${month}.csv`;
