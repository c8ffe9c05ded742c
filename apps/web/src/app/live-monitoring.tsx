import type { LiveAlertEvent, Role } from '@wearable/domain';
import { isStaffRole } from '@wearable/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import {
  AlertNotifier,
  applyAlertEvent,
  FamilyAlertBanner,
  invalidateAlertViews,
} from '../features/alerts';
import { invalidateHeatRuleReports } from '../features/heat-rule';
import { PairingPoller } from '../features/bracelets';
import { LiveHealthBanner, useLiveStream } from '../features/live';
import { invalidatePlaceMap, MAP_LIVE_MS } from '../features/map';
import { invalidateSiteHeat } from '../features/site-heat';

/**
 * Mounted once in the shell outside the demo: one live stream for the whole tab (its `alert` events
 * update every alert list and the notifier at once), the staff alert notifications, a personal
 * user's family alert banner, and the poll of pairings started in this browser.
 */
export function LiveMonitoring({
  role,
  clientId = null,
}: {
  role: Role;
  /** The user's organisation (its ingestion status); null for platform staff. */
  clientId?: string | null;
}) {
  const queryClient = useQueryClient();
  // An alert opened, closed or was confirmed: the alert lists and counts take it from the event,
  // the views it cannot update are fetched again, and the map (its cards and markers).
  const onAlert = useCallback(
    (event: LiveAlertEvent) => {
      void applyAlertEvent(queryClient, event);
      void invalidatePlaceMap(queryClient);
    },
    [queryClient],
  );
  // A site changed heat level: its badges and the heat-rule report (the month's changes) refetch.
  const onSiteHeat = useCallback(() => {
    void invalidateSiteHeat(queryClient);
    void invalidateHeatRuleReports(queryClient);
  }, [queryClient]);
  // Someone's latest values changed (a new reading, so perhaps a new place): an open map refetches,
  // at once and then at most once a second (MAP_LIVE_MS) while readings keep coming.
  const lastMapRefresh = useRef(0);
  const mapTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onSummary = useCallback(() => {
    if (mapTimer.current !== undefined) return;
    const wait = Math.max(0, lastMapRefresh.current + MAP_LIVE_MS - Date.now());
    mapTimer.current = setTimeout(() => {
      mapTimer.current = undefined;
      lastMapRefresh.current = Date.now();
      void invalidatePlaceMap(queryClient);
    }, wait);
  }, [queryClient]);
  useEffect(() => () => clearTimeout(mapTimer.current), []);
  // A stream opened: an alert opened or a site turned hot between this page's first reads and the
  // stream (or during a drop) came as no event. Seen in CI: a site's DANGER frame published while
  // /devices was still connecting never reached its badge.
  const onOpen = useCallback(() => {
    void invalidateAlertViews(queryClient);
    void invalidateSiteHeat(queryClient);
    void invalidatePlaceMap(queryClient);
  }, [queryClient]);
  // Every role, personal users too (issue 34): the server sends each only what it may see.
  useLiveStream({ enabled: true, onAlert, onSiteHeat, onSummary, onOpen });
  return (
    <>
      {isStaffRole(role) && <LiveHealthBanner clientId={clientId} />}
      <AlertNotifier role={role} />
      <FamilyAlertBanner role={role} />
      <PairingPoller />
    </>
  );
}
