import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useIsDemo } from '../../../lib/app-path';
import { fetchIsPaired } from '../api/is-paired-wearable';
import { invalidateBracelets } from '../api/device-setting';
import { startPairingPoller } from '../pending-pairings';

/**
 * Mounted once by the shell: asks about this browser's pending pairings every 90 s (never in the demo) and shows
 * a success toast for each bracelet its gateway has reported.
 */
export function PairingPoller() {
  const { t } = useTranslation('wearer');
  const demo = useIsDemo();
  const queryClient = useQueryClient();
  // The words may load or change language meanwhile; the 90 s rhythm must not restart for that.
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  }, [t]);
  useEffect(() => {
    if (demo) return undefined;
    return startPairingPoller({
      check: fetchIsPaired,
      onPaired: (entry) => {
        toast.success(tRef.current('pairing.success', { name: entry.name }));
        void invalidateBracelets(queryClient);
      },
    });
  }, [demo, queryClient]);
  return null;
}
