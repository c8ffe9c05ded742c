import { useSyncExternalStore } from 'react';

/** off: no stream (demo, personal users, no token); open: events arrive; closed: refused or dropped. */
export type LiveStatus = 'off' | 'connecting' | 'open' | 'closed';

let status: LiveStatus = 'off';
/** Since when a wanted stream has not been open (its drop, or its first try); null while open or off. */
let downSince: number | null = null;
const listeners = new Set<() => void>();

/** One stream per tab; pages read its state to decide whether to poll instead. */
export const liveStatusStore = {
  get: (): LiveStatus => status,
  /** When the stream went down (ms since the epoch), or null (open, or not wanted). */
  downSince: (): number | null => downSince,
  set: (next: LiveStatus, now: number = Date.now()): void => {
    if (next === status) return;
    status = next;
    if (next === 'open' || next === 'off') downSince = null;
    else downSince ??= now;
    for (const listener of listeners) listener();
  },
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useLiveStatus = (): LiveStatus =>
  useSyncExternalStore(liveStatusStore.subscribe, liveStatusStore.get, liveStatusStore.get);

/** Since when the live stream has been down (null while it is open or not wanted). */
export const useLiveDownSince = (): number | null =>
  useSyncExternalStore(
    liveStatusStore.subscribe,
    liveStatusStore.downSince,
    liveStatusStore.downSince,
  );

/** Poll the summary every 10 s unless the stream is delivering; then only a slow safety refresh. */
export const summaryPollMs = (live: LiveStatus): number => (live === 'open' ? 60_000 : 10_000);

/** The console says its live updates have stopped once the stream has been down this long. */
export const LIVE_DOWN_BANNER_MS = 30_000;
