import { type AlertView, isFamilyAlertLevel, listAlerts } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';

/** How long after staff confirmed it an alert stays on the banner as "being handled". */
export const HANDLED_SHOWN_MS = 60 * 60_000;
/** Closed alerts read back this far (an SOS confirmed an hour after it opened still shows as handled). */
const CLOSED_LOOKBACK_MS = 24 * 60 * 60_000;
const PAGE = 100;

/**
 * Filed under the alert list endpoint, so a live `alert` event (applyAlertEvent) refetches it:
 * its key is neither a list page nor the unconfirmed count, and such a key is read again.
 */
export const FAMILY_ALERTS_KEY = [listAlerts.id, { familyBanner: true }] as const;

/**
 * What the family banner shows, newest first: the open EMERGENCY and CRITICAL alerts of the
 * wearers the server lets this user see (their linked ones), and those staff confirmed within the
 * last hour ("being handled"). An alert that closed without a confirmation (recovered) is gone.
 */
export function familyBannerAlerts(alerts: readonly AlertView[], now: number): AlertView[] {
  const seen = new Set<string>();
  return alerts
    .filter((a) => {
      if (seen.has(a.id) || !isFamilyAlertLevel(a.level)) return false;
      seen.add(a.id);
      if (a.confirmedAt !== null) return now - Date.parse(a.confirmedAt) < HANDLED_SHOWN_MS;
      return a.status === 'OPEN';
    })
    .sort((a, b) => Date.parse(b.openedAt) - Date.parse(a.openedAt));
}

async function fetchFamilyAlerts(): Promise<AlertView[]> {
  const now = Date.now();
  const [open, closed] = await Promise.all([
    call(listAlerts, { query: { status: 'OPEN', pageSize: PAGE } }),
    call(listAlerts, {
      query: {
        status: 'CLOSED',
        from: new Date(now - CLOSED_LOOKBACK_MS).toISOString(),
        pageSize: PAGE,
      },
    }),
  ]);
  return familyBannerAlerts([...open.alerts, ...closed.alerts], now);
}

/** The banner's alerts; polled each minute as well (a "handled" one leaves after its hour). */
export function useFamilyAlerts(enabled: boolean) {
  return useQuery({
    queryKey: FAMILY_ALERTS_KEY,
    queryFn: fetchFamilyAlerts,
    enabled,
    refetchInterval: 60_000,
    staleTime: 0,
  });
}
