import type { Role } from '@wearable/domain';
import { isStaffRole } from '@wearable/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { AlertNotifier, invalidateAlertViews, invalidateHeatRuleReports } from '../features/alerts';
import { PairingPoller } from '../features/bracelets';
import { useLiveStream } from '../features/live';
import { invalidateSiteHeat } from '../features/site-heat';

/**
 * Mounted once in the shell outside the demo: one live stream for the whole tab (its `alert` events
 * refresh every alert view and the notifier at once) and the staff alert notifications, and the poll of pairings started in this browser.
 */
export function LiveMonitoring({ role }: { role: Role }) {
  const queryClient = useQueryClient();
  const onAlert = useCallback(() => void invalidateAlertViews(queryClient), [queryClient]);
  // A site changed heat level: its badges and the heat-rule report (the month's changes) refetch.
  const onSiteHeat = useCallback(() => {
    void invalidateSiteHeat(queryClient);
    void invalidateHeatRuleReports(queryClient);
  }, [queryClient]);
  useLiveStream({ enabled: isStaffRole(role), onAlert, onSiteHeat });
  return (
    <>
      <AlertNotifier role={role} />
      <PairingPoller />
    </>
  );
}
