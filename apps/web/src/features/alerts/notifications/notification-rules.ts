import {
  ALERT_REPEAT_SUPPRESS_MS,
  alertColour,
  receivesAlertPopups,
  type AlertLevel,
  type Role,
} from '@wearable/domain';
import { paths } from '../../../config/paths';
import { isDemoPath, stripDemoPrefix } from '../../../lib/demo';

/** localStorage key of the stored alert memo (spec section 3: count, timestamp). Logout clears it with the rest. */
export const ALERT_MEMO_KEY = 'alertMemo';

export interface AlertMemo {
  count: number;
  timestamp: number;
}

const QUIET_PAGES: string[] = [paths.login.path, paths.verify.path];

/** Popups and sound: the five staff roles, never on the sign-in pages, never in the demo (spec 1, 6, 9). */
export function notificationsAllowed(role: Role | null, pathname: string): boolean {
  if (role === null || isDemoPath(pathname)) return false;
  if (QUIET_PAGES.includes(stripDemoPrefix(pathname))) return false;
  return receivesAlertPopups(role);
}

/**
 * Whether `count` unconfirmed alerts deserve a popup now, and the memo to keep.
 * The same count within 5 minutes of the last popup stays quiet; so does a lower count (staff
 * just confirmed some: their action has its own toast, a second popup on top of it was noise),
 * remembered with the last popup's time so the 5-minute repeat still comes. Zero resets the
 * memo, so the next alert after everything was confirmed is announced again.
 */
export function decideNotification(
  count: number,
  memo: AlertMemo | null,
  now: number,
): { notify: boolean; memo: AlertMemo } {
  if (count <= 0) return { notify: false, memo: { count: 0, timestamp: now } };
  if (memo !== null && now - memo.timestamp < ALERT_REPEAT_SUPPRESS_MS) {
    if (count === memo.count) return { notify: false, memo };
    if (count < memo.count) return { notify: false, memo: { count, timestamp: memo.timestamp } };
  }
  return { notify: true, memo: { count, timestamp: now } };
}

export function readAlertMemo(): AlertMemo | null {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(ALERT_MEMO_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { count, timestamp } = value as Record<string, unknown>;
    return typeof count === 'number' && typeof timestamp === 'number' ? { count, timestamp } : null;
  } catch {
    return null;
  }
}

export function writeAlertMemo(memo: AlertMemo): void {
  try {
    window.localStorage.setItem(ALERT_MEMO_KEY, JSON.stringify(memo));
  } catch {
    // A full or blocked storage only means a repeat popup may show again.
  }
}

/** How the popup looks and speaks: red unless every open alert is a caution; assertive when one is an emergency. */
export interface PopupTone {
  colour: 'amber' | 'red';
  urgent: boolean;
}

export function popupTone(levels: readonly AlertLevel[]): PopupTone {
  return {
    colour:
      levels.length > 0 && levels.every((level) => alertColour(level) === 'amber')
        ? 'amber'
        : 'red',
    urgent: levels.includes('EMERGENCY'),
  };
}
