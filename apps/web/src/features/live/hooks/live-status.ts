import { useSyncExternalStore } from 'react';

/** off: no stream (demo, personal users, no token); open: events arrive; closed: refused or dropped. */
export type LiveStatus = 'off' | 'connecting' | 'open' | 'closed';

let status: LiveStatus = 'off';
const listeners = new Set<() => void>();

/** One stream per tab; pages read its state to decide whether to poll instead. */
export const liveStatusStore = {
  get: (): LiveStatus => status,
  set: (next: LiveStatus): void => {
    if (next === status) return;
    status = next;
    for (const listener of listeners) listener();
  },
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useLiveStatus = (): LiveStatus =>
  useSyncExternalStore(liveStatusStore.subscribe, liveStatusStore.get, liveStatusStore.get);

/** Poll the summary every 10 s unless the stream is delivering; then only a slow safety refresh. */
export const summaryPollMs = (live: LiveStatus): number => (live === 'open' ? 60_000 : 10_000);
