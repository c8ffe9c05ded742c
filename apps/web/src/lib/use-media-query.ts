import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; without matchMedia (tests) it counts as matching. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const get = () =>
    typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : true;
  return useSyncExternalStore(subscribe, get, get);
}
