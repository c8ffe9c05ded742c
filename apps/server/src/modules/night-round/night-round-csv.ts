import { type AlertView, isoWithOffset, NIGHT_ALERTS_CSV_COLUMNS } from '@wearable/domain';
import { csvCell } from '../alerts/alerts.service.js';

const BOM = '\uFEFF';

/**
 * The night's alerts for care-record software (docs/night-round.md): UTF-8 with BOM (Excel reads Japanese
 * only with it), CRLF, one header row of fixed ASCII names, codes rather than labels, times ISO 8601 with the
 * organisation's offset.
 */
export function nightAlertsCsv(alerts: readonly AlertView[], timeZone: string): string {
  const time = (at: string | null) => (at === null ? null : isoWithOffset(at, timeZone));
  const lines = [NIGHT_ALERTS_CSV_COLUMNS.join(',')];
  for (const a of alerts) {
    const minutes =
      a.confirmedAt === null
        ? null
        : Math.round((Date.parse(a.confirmedAt) - Date.parse(a.openedAt)) / 60_000);
    const row = [
      a.id,
      a.wearer?.uid ?? null,
      a.wearer?.name ?? null,
      a.groupName,
      a.type,
      a.level,
      a.status,
      time(a.openedAt),
      time(a.confirmedAt),
      a.confirmedBy?.name ?? null,
      a.confirmReason,
      a.confirmNote,
      minutes,
      time(a.closedAt),
      a.closeReason,
    ];
    lines.push(row.map(csvCell).join(','));
  }
  return BOM + lines.join('\r\n') + '\r\n';
}
