import type { AppContext } from '../../context.js';
import { whenCommitted, type Queryable } from '../../db/client.js';
import { withLaneHint } from '../../db/priority-lane.js';
import {
  type AlertOutboxEntry,
  alertOutboxRepository,
  type ClaimedEntry,
} from './alert-outbox.repository.js';

/** Rows claimed per pass, and handled at once. */
const CLAIM_BATCH = 50;
const CONCURRENCY = 16;
/** Passes of one deliverer at once. */
const MAX_PASSES = 4;
/** A row that keeps failing is tried this many times (backoff capped at a minute), then dropped and logged. */
const MAX_ATTEMPTS = 100;
const MAX_BACKOFF_MS = 60_000;

type Log = { error(o: object, m: string): void; warn?(o: object, m: string): void };

export interface AlertOutboxHandler {
  kind: string;
  /** How long a claimed row is this server's: another server takes it again after this. */
  leaseMs: number;
  /** Delivers one alert's row; a throw retries it later (with backoff). */
  deliver(row: ClaimedEntry): Promise<void>;
}

/**
 * In the alert's transaction `tx`: what others writing an alert call to have it told (the live
 * frame, the notices). The engine's openings enqueue theirs in the alert's own INSERT
 * (insertOpenAlert); this is for any other writer. This server's deliverers wake after the commit.
 */
export async function enqueueAlertOutbox(
  ctx: Pick<AppContext, 'alertOutbox'>,
  tx: Queryable,
  entries: readonly AlertOutboxEntry[],
): Promise<void> {
  if (!entries.length) return;
  await alertOutboxRepository(tx).enqueue(entries);
  whenCommitted(tx, () => ctx.alertOutbox.wake());
}

/**
 * One kind's deliverer, on every server: claims due rows (FOR UPDATE SKIP LOCKED, so servers share
 * them and never hold one twice at once), delivers each, deletes it. Runs at once when woken (an
 * alert committed on this server), else every `pollMs`, and at start (rows a killed process left).
 * Returns stop().
 */
export function startAlertOutboxWorker(
  ctx: AppContext,
  handler: AlertOutboxHandler,
  log: Log,
): () => Promise<void> {
  const repo = alertOutboxRepository(ctx.db);
  const pollMs = ctx.config.alertOutboxPollMs;

  async function deliverOne(row: ClaimedEntry): Promise<boolean> {
    try {
      // An EMERGENCY's work goes ahead of queued batches and other alerts' notices (priority-lane.ts).
      await withLaneHint({ urgent: row.emergency }, () => handler.deliver(row));
      return true;
    } catch (err) {
      const last = row.attempts >= MAX_ATTEMPTS;
      log.error(
        { err, alertId: row.alertId, kind: handler.kind, attempts: row.attempts, dropped: last },
        'alert outbox delivery failed',
      );
      if (last) return true;
      const wait = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.max(0, row.attempts - 1));
      await repo
        .retryAt(
          handler.kind,
          row.alertId,
          new Date(ctx.now().getTime() + wait),
          String((err as Error)?.message ?? err),
        )
        .catch(() => undefined); // the lease brings it back anyway
      return false;
    }
  }

  async function drain(): Promise<void> {
    for (;;) {
      const now = ctx.now();
      const due = await repo.claim(
        handler.kind,
        now,
        new Date(now.getTime() + handler.leaseMs),
        CLAIM_BATCH,
        ctx.config.alertOutboxOnlyOwn ? ctx.alertOutbox.seenHere() : null,
      );
      if (!due.length) return;
      const delivered: string[] = [];
      let next = 0;
      const lane = async () => {
        while (next < due.length) {
          const row = due[next++]!;
          if (await deliverOne(row)) delivered.push(row.alertId);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, lane));
      await repo.done(handler.kind, delivered);
      if (due.length < CLAIM_BATCH) return;
    }
  }

  // Passes run side by side (up to MAX_PASSES): a wake while one delivers a slow batch claims the
  // new rows at once (an SOS never waits behind a batch of heat notices); claimed rows are leased,
  // so two passes never take the same row.
  const running = new Set<Promise<void>>();
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running.size >= MAX_PASSES) {
      again = true;
      return;
    }
    again = false;
    // The claim goes ahead of queued reading batches (db/priority-lane.ts).
    const pass: Promise<void> = withLaneHint({ urgent: true }, drain)
      .catch((err: unknown) => log.error({ err, kind: handler.kind }, 'alert outbox pass failed'))
      .finally(() => {
        running.delete(pass);
        if (again) run();
      });
    running.add(pass);
  };
  const unsubscribe = ctx.alertOutbox.onWake(run);
  const timer = setInterval(run, pollMs);
  timer.unref();
  run();
  return async () => {
    stopped = true;
    unsubscribe();
    clearInterval(timer);
    await Promise.all(running);
  };
}
