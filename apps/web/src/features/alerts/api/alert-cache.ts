import type { AlertListResponse, AlertView, LiveAlertEvent } from '@wearable/domain';
import { PERIOD_MS, type AlertFilterState } from './alert-filters';

/**
 * What a live `alert` event does to a cached page of the alert list (issue 15 item 2): the event
 * carries the whole alert (the list's own view of it), so the page is updated in place instead of
 * asked again. `null` means the event changes what the event cannot carry (which alert moves up
 * from the next page, the pages after a new one): that page alone is fetched again.
 *
 * The list is newest first (opened_at), filtered as the page asked (`filters`, the period counted
 * back from `now`), `pageSize` a page.
 */
export interface AlertListKey {
  filters: AlertFilterState;
  page: number;
  pageSize: number;
}

/** Whether the alert belongs to the list the filters ask for (the server's own filters, in memory). */
export function matchesFilters(alert: AlertView, filters: AlertFilterState, now: number): boolean {
  if (filters.notConfirmed && alert.confirmedAt !== null) return false;
  if (filters.type !== '' && alert.type !== filters.type) return false;
  if (filters.level !== '' && alert.level !== filters.level) return false;
  if (filters.uid !== undefined && alert.wearer?.uid !== filters.uid) return false;
  if (filters.period !== 'all' && Date.parse(alert.openedAt) < now - PERIOD_MS[filters.period])
    return false;
  return true;
}

const newerFirst = (a: AlertView, b: AlertView) => Date.parse(b.openedAt) - Date.parse(a.openedAt);

export function listAfterEvent(
  list: AlertListResponse,
  key: AlertListKey,
  event: LiveAlertEvent,
  now: number,
): AlertListResponse | null {
  const alert = event.alert;
  const matches = matchesFilters(alert, key.filters, now);
  const at = list.alerts.findIndex((a) => a.id === alert.id);
  if (at >= 0) {
    // On this page: its new state in place, or it leaves the filtered list (confirmed while the
    // page shows only unconfirmed ones) and the next page's first alert moves up: asked again.
    if (!matches) return null;
    const alerts = [...list.alerts];
    alerts[at] = alert;
    return { ...list, alerts };
  }
  if (event.action !== 'opened') {
    // Not on this page: only a change of membership (a confirmation under `notConfirmed`)
    // moves the pages; otherwise nothing this page shows changed.
    return key.filters.notConfirmed && event.action === 'confirmed' ? null : list;
  }
  if (!matches) return list;
  const last = list.alerts[list.alerts.length - 1];
  const full = list.alerts.length >= key.pageSize;
  const olderThanPage = last !== undefined && newerFirst(alert, last) > 0;
  // Older than everything on a full page: it lands on a later page; this one only counts it.
  if (full && olderThanPage) return { ...list, total: list.total + 1 };
  // Newer than something on a later page: every page from here shifts by one.
  if (key.page !== 1) return null;
  const alerts = [...list.alerts, alert].sort(newerFirst).slice(0, key.pageSize);
  return { ...list, alerts, total: list.total + 1 };
}
