import { useEffect } from 'react';

/**
 * Keeps the screen awake while `active` (Screen Wake Lock API). The browser releases the lock whenever the tab
 * is hidden, so it is asked for again each time the tab is visible; a refusal (battery saver, no API) is fine.
 */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    if (!active || !('wakeLock' in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    let stopped = false;
    const acquire = () => {
      if (document.visibilityState !== 'visible' || (sentinel !== null && !sentinel.released))
        return;
      navigator.wakeLock.request('screen').then(
        (lock) => {
          if (stopped) void lock.release().catch(() => undefined);
          else sentinel = lock;
        },
        () => undefined,
      );
    };
    acquire();
    document.addEventListener('visibilitychange', acquire);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', acquire);
      void sentinel?.release().catch(() => undefined);
    };
  }, [active]);
}
