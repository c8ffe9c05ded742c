/**
 * What the app holds for the alert outbox (ctx.alertOutbox): a wake-up for this server's
 * deliverers, and the alerts whose live frame this process's bus already carried (emitted right
 * after their commit, modules/alerts/engine-turn.ts announceOpened, or received from another server), so the
 * deliverer only removes their row instead of emitting them twice. The deliverers' poll is the fallback (another server's rows, a retry, a restart).
 */
export interface AlertOutboxRuntime {
  /** Wakes the deliverers (cheap; many calls before they run make one pass). */
  wake(): void;
  /** A deliverer registers here; returns the unsubscribe. */
  onWake(fn: () => void): () => void;
  /** This process emitted the alert's opened frame on its bus (after the commit). */
  markPublished(alertId: string): void;
  /** Whether it did (and forgets it: the deliverer asks once per row). */
  takePublished(alertId: string): boolean;
  /** Every alert this process saw opened on its bus (the deliverers' scope in tests sharing a database). */
  seenHere(): string[];
  /** Tests sharing a database: this alert's rows are this process's too (one whose server died before its bus carried it). */
  adopt(alertId: string): void;
}

/** Alerts remembered as published; more than this without a pass of the deliverer forgets the oldest. */
const PUBLISHED_MAX = 10_000;

export function createAlertOutboxRuntime(): AlertOutboxRuntime {
  const listeners = new Set<() => void>();
  const published = new Set<string>();
  const here = new Set<string>();
  return {
    wake() {
      for (const fn of listeners) fn();
    },
    onWake(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    markPublished(alertId) {
      published.add(alertId);
      if (published.size > PUBLISHED_MAX) published.delete(published.values().next().value!);
      here.add(alertId);
      if (here.size > PUBLISHED_MAX) here.delete(here.values().next().value!);
    },
    takePublished(alertId) {
      return published.delete(alertId);
    },
    seenHere() {
      return [...here];
    },
    adopt(alertId) {
      here.add(alertId);
    },
  };
}
