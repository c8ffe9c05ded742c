import { useCallback, useSyncExternalStore } from 'react';

/** localStorage: this browser is a wall monitor (screen kept awake, new alerts full screen). Logout clears it. */
export const WALL_MONITOR_KEY = 'wallMonitor';

const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return window.localStorage.getItem(WALL_MONITOR_KEY) === 'on';
  } catch {
    return false;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of the same browser switching it.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The wall-monitor setting of this browser and how to change it. */
export function useWallMonitorSetting(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribe, read, () => false);
  const set = useCallback((next: boolean) => {
    try {
      if (next) window.localStorage.setItem(WALL_MONITOR_KEY, 'on');
      else window.localStorage.removeItem(WALL_MONITOR_KEY);
    } catch {
      // Blocked storage: the setting cannot be kept.
    }
    listeners.forEach((listener) => listener());
  }, []);
  return [on, set];
}
