import { useCallback, useState } from 'react';

/** sessionStorage: alerts muted in this tab (a reload keeps them muted; another tab still rings). */
export const MUTED_ALERTS_KEY = 'mutedAlerts';

function readIds(key: string): string[] {
  try {
    const value: unknown = JSON.parse(window.sessionStorage.getItem(key) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** At most this many ids are kept: enough for a shift, never an unbounded list. */
const KEEP = 200;

/** A set of alert ids this tab remembers (kept in sessionStorage under `key` when given), and how to add one. */
export function useAlertIdSet(key?: string): [ReadonlySet<string>, (id: string) => void] {
  const [ids, setIds] = useState<ReadonlySet<string>>(
    () => new Set(key === undefined ? [] : readIds(key)),
  );
  const add = useCallback(
    (id: string) =>
      setIds((current) => {
        if (current.has(id)) return current;
        const next = [...current, id].slice(-KEEP);
        if (key !== undefined) {
          try {
            window.sessionStorage.setItem(key, JSON.stringify(next));
          } catch {
            // Blocked storage: muted until the next reload only.
          }
        }
        return new Set(next);
      }),
    [key],
  );
  return [ids, add];
}
