import { type AlertView, formatDateTime, placeText } from '@wearable/domain';
import {
  ALERT_LEVEL_LABELS,
  ALERT_TYPE_LABELS,
  CLOSE_REASON_LABELS,
  CONFIRM_REASON_LABELS,
  CSV_HEADERS,
  type Lang,
  STATUS_LABELS,
  UNASSIGNED_DEVICE_LABELS,
} from './alert-labels.js';

const BOM = '\uFEFF';

/**
 * One CSV cell. Cells a spreadsheet would run as a formula (=, +, -, @, tab, CR first) get a
 * leading apostrophe; quotes, commas and line breaks are quoted as RFC 4180 says.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The alert list as UTF-8 CSV with BOM (Excel opens Japanese text correctly only with it). */
export function alertsCsv(alerts: (AlertView & { timeZone: string })[], lang: Lang): string {
  const yes = lang === 'ja' ? 'あり' : 'yes';
  const no = lang === 'ja' ? 'なし' : 'no';
  // The console's one date format per language, in the organisation's zone (ja 2026/11/22 19:26, en 22 Nov 2026, 19:26).
  const time = (iso: string | null, tz: string) => (iso ? formatDateTime(iso, lang, tz) : null);
  const lines = [CSV_HEADERS[lang].map(csvCell).join(',')];
  for (const a of alerts) {
    const row = [
      a.id,
      time(a.openedAt, a.timeZone),
      ALERT_TYPE_LABELS[lang][a.type],
      ALERT_LEVEL_LABELS[lang][a.level],
      STATUS_LABELS[lang][a.status],
      time(a.closedAt, a.timeZone),
      a.closeReason ? (CLOSE_REASON_LABELS[lang][a.closeReason] ?? a.closeReason) : null,
      time(a.confirmedAt, a.timeZone),
      a.confirmedBy?.name ?? null,
      a.confirmReason ? CONFIRM_REASON_LABELS[lang][a.confirmReason] : null,
      a.confirmNote,
      a.wearer?.uid ?? null,
      a.wearer?.name ?? (a.device ? UNASSIGNED_DEVICE_LABELS[lang](a.device.serial) : null),
      a.groupName,
      a.clientId,
      a.notified ? yes : no,
      a.cause?.rule ?? null,
      a.cause ? JSON.stringify(a.cause.values) : null,
      // Empty for alerts that do not record a place; "Place unknown" said plainly when it was.
      a.place ? placeText(a.place, lang, a.timeZone) : null,
    ];
    lines.push(row.map(csvCell).join(','));
  }
  return BOM + lines.join('\r\n') + '\r\n';
}
