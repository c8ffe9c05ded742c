import type { AlertLevel, AlertView } from '@wearable/domain';
import { ALERT_TONES, loudestLevel } from './alert-tones';

/** The alerts whose tone repeats now: unconfirmed, of a level that repeats (ALERT_TONES), not muted in this tab. */
export function ringingAlerts(
  attention: readonly AlertView[],
  muted: ReadonlySet<string>,
): AlertView[] {
  return attention.filter((a) => ALERT_TONES[a.level].repeatMs !== null && !muted.has(a.id));
}

/** How the repeat runs: the loudest ringing level and its interval; null when nothing rings. */
export function repeatOf(
  ringing: readonly AlertView[],
): { level: AlertLevel; everyMs: number } | null {
  const level = loudestLevel(ringing.map((a) => a.level));
  const everyMs = level === null ? null : ALERT_TONES[level].repeatMs;
  return level === null || everyMs === null ? null : { level, everyMs };
}

/** The alerts not among `seen` (by id), in their order: new ones to tell about. */
export function unseenAlerts(alerts: readonly AlertView[], seen: ReadonlySet<string>): AlertView[] {
  return alerts.filter((a) => !seen.has(a.id));
}

/** What the wall monitor shows full screen: the newest unconfirmed EMERGENCY/CRITICAL not dismissed here. */
export function wallMonitorAlert(
  attention: readonly AlertView[],
  dismissed: ReadonlySet<string>,
): { alert: AlertView; more: number } | null {
  const waiting = unseenAlerts(attention, dismissed);
  const first = waiting.find((a) => a.level === 'EMERGENCY') ?? waiting[0];
  return first === undefined ? null : { alert: first, more: waiting.length - 1 };
}
