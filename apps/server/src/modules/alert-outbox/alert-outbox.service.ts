import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import type { AlertOutboxEntry } from './alert-outbox.repository.js';
import {
  type AlertOutboxHandler,
  enqueueAlertOutbox,
  startAlertOutboxWorker,
} from './alert-outbox.worker.js';

export type { AlertOutboxEntry, AlertOutboxKind, ClaimedEntry } from './alert-outbox.repository.js';
export type { AlertOutboxHandler } from './alert-outbox.worker.js';

type Log = { error(o: object, m: string): void };

/**
 * The alert outbox as other modules use it (docs/decisions/0015-alert-outbox.md):
 * - `enqueue(tx, [{ alertId, kind }])` in the transaction that writes an alert, for a writer other
 *   than insertOpenAlert (which enqueues its own in the alert's INSERT);
 * - `startDeliverer(handler, log)` for a kind's deliverer (the notices' is the notifications plugin's).
 */
export function alertOutboxService(ctx: AppContext) {
  return {
    enqueue: (tx: Queryable, entries: readonly AlertOutboxEntry[]): Promise<void> =>
      enqueueAlertOutbox(ctx, tx, entries),
    startDeliverer: (handler: AlertOutboxHandler, log: Log): (() => Promise<void>) =>
      startAlertOutboxWorker(ctx, handler, log),
  };
}
