/**
 * What the app holds for webhooks (ctx.webhooks): a wake-up signal for this server's delivery
 * worker. The outbox write asks for it after its transaction commits, so a delivery leaves within
 * moments of its event; the worker's poll is only the fallback (another server's event, a retry).
 */
export interface WebhookRuntime {
  /** Wakes the delivery worker (cheap; many calls before it runs make one pass). */
  wake(): void;
  /** The worker registers here; returns the unsubscribe. */
  onWake(fn: () => void): () => void;
}

export function createWebhookRuntime(): WebhookRuntime {
  const listeners = new Set<() => void>();
  return {
    wake() {
      for (const fn of listeners) fn();
    },
    onWake(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
