import type { AppContext } from '../../context.js';
import { secretBoxService } from '../auth/secret-box.service.js';
import { sendAttempt, type AttemptResult } from './webhook-sender.js';
import { webhookDisabledMail } from './webhook-mail.js';

/** A delivery is retried for this long after its event, then marked failed. */
export const RETRY_FOR_MS = 24 * 60 * 60_000;
/** An endpoint whose deliveries have all failed for this long is disabled and its owners mailed. */
export const DISABLE_AFTER_MS = 24 * 60 * 60_000;
/** No wait between two attempts is longer than this. */
const MAX_BACKOFF_MS = 60 * 60_000;
/** Deliveries claimed per pass, and sent at once. */
const CLAIM_BATCH = 100;
const CONCURRENCY = 32;

interface Claimed {
  id: string;
  endpointId: string;
  organizationId: string;
  url: string;
  secretSealed: string;
  payload: string;
  attempts: number;
  createdAt: Date;
}

/** The wait before the next attempt after `attempts` failed ones: doubling, capped, with jitter. */
export function backoffMs(attempts: number, baseMs: number, random = Math.random): number {
  const exp = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * The delivery worker, on every server: it claims due deliveries with FOR UPDATE SKIP LOCKED (so
 * several servers share them and never send one twice at once), pushing their due time past the
 * request's deadline as a lease: a server killed mid-request leaves them due again after it. Each
 * result is recorded with its attempt; a failure is retried with backoff for RETRY_FOR_MS.
 */
export function webhookWorker(ctx: AppContext, log: { error(o: object, m: string): void }) {
  const box = secretBoxService(ctx);
  // Read at each use: an operator setting changed on the context applies to the next attempt.
  const cfg = () => ctx.config.webhooks;

  async function claim(): Promise<Claimed[]> {
    const now = ctx.now();
    const lease = new Date(now.getTime() + cfg().timeoutMs * 2 + 5000);
    return ctx.db.query<Claimed>(
      `UPDATE webhook_deliveries d SET next_attempt_at = $2
         FROM webhook_endpoints e, webhook_events ev
        WHERE d.id IN (SELECT d2.id FROM webhook_deliveries d2
                         JOIN webhook_endpoints e2 ON e2.id = d2.endpoint_id AND e2.enabled
                        WHERE d2.status = 'pending' AND d2.next_attempt_at <= $1
                        ORDER BY d2.next_attempt_at LIMIT $3 FOR UPDATE OF d2 SKIP LOCKED)
          AND e.id = d.endpoint_id AND ev.id = d.event_id
       RETURNING d.id, d.endpoint_id AS "endpointId", e.organization_id AS "organizationId", e.url,
                 e.secret_sealed AS "secretSealed", ev.payload, d.attempts, d.created_at AS "createdAt"`,
      [now, lease, CLAIM_BATCH],
    );
  }

  async function record(d: Claimed, r: AttemptResult): Promise<void> {
    const now = ctx.now();
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const attempt = d.attempts + 1;
    const givesUp = !ok && now.getTime() - new Date(d.createdAt).getTime() >= RETRY_FOR_MS;
    const next = new Date(now.getTime() + backoffMs(attempt, cfg().retryBaseMs));
    const disabled = await ctx.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE webhook_deliveries SET attempts = $2, status = $3, next_attempt_at = $4,
                last_status_code = $5, last_duration_ms = $6,
                delivered_at = CASE WHEN $3 = 'delivered' THEN $7::timestamptz ELSE delivered_at END
          WHERE id = $1`,
        [
          d.id,
          attempt,
          ok ? 'delivered' : givesUp ? 'failed' : 'pending',
          ok || givesUp ? now : next,
          r.statusCode,
          r.durationMs,
          now,
        ],
      );
      await tx.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, duration_ms, error)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [d.id, attempt, now, r.statusCode, r.durationMs, r.error?.slice(0, 500) ?? null],
      );
      if (ok) {
        await tx.query(
          'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
          [d.endpointId],
        );
        return false;
      }
      // A day of failures (and no success since) disables the endpoint; one server wins the update.
      const off = await tx.query(
        `UPDATE webhook_endpoints
            SET failing_since = COALESCE(failing_since, $2),
                enabled = CASE WHEN COALESCE(failing_since, $2) <= $3 THEN false ELSE enabled END,
                disabled_reason = CASE WHEN COALESCE(failing_since, $2) <= $3 THEN 'failing'
                                       ELSE disabled_reason END
          WHERE id = $1 AND enabled
          RETURNING enabled`,
        [d.endpointId, now, new Date(now.getTime() - DISABLE_AFTER_MS)],
      );
      return off[0]?.enabled === false;
    });
    if (disabled) await mailOwners(d);
  }

  async function mailOwners(d: Claimed): Promise<void> {
    const owners = await ctx.db.query<{
      id: string;
      email: string;
      name: string;
      locale: 'ja' | 'en';
    }>(
      `SELECT id, email, name, locale FROM users
        WHERE organization_id = $1 AND role = 'ORGANIZATION_OWNER' AND deleted_at IS NULL
          AND email IS NOT NULL`,
      [d.organizationId],
    );
    for (const o of owners) {
      const mail = webhookDisabledMail({
        locale: o.locale,
        publicUrl: ctx.config.publicUrl,
        name: o.name,
        url: d.url,
      });
      void ctx.mail.send({ email: o.email, userId: o.id, organizationId: d.organizationId }, mail);
    }
  }

  async function deliver(d: Claimed): Promise<void> {
    const secret = await box.open(d.secretSealed);
    const result = await sendAttempt(
      { id: d.id, url: d.url, secret, payload: d.payload },
      { allowPrivate: cfg().allowPrivate, timeoutMs: cfg().timeoutMs, now: ctx.now },
    );
    await record(d, result);
  }

  /** One pass: claims and sends until nothing is due; returns how many were attempted. */
  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await claim();
      total += due.length;
      let next = 0;
      const lane = async () => {
        while (next < due.length) {
          const d = due[next++]!;
          await deliver(d).catch((err: unknown) =>
            log.error({ err, deliveryId: d.id }, 'webhook delivery failed to record'),
          );
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, lane));
      if (due.length < CLAIM_BATCH) return total;
    }
  }

  return { drain };
}
export type WebhookWorker = ReturnType<typeof webhookWorker>;

/**
 * Runs the worker: at once when woken (an outbox write committed on this server), else every
 * WEBHOOKS_POLL_MS. A wake during a pass makes one more pass. Returns stop().
 */
export function startWebhookWorker(
  ctx: AppContext,
  log: { error(o: object, m: string): void },
): () => Promise<void> {
  const worker = webhookWorker(ctx, log);
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = worker
      .drain()
      .then(() => undefined)
      .catch((err: unknown) => log.error({ err }, 'webhook worker pass failed'))
      .finally(() => {
        running = null;
        if (again) run();
      });
  };
  const unsubscribe = ctx.webhooks.onWake(run);
  const timer = setInterval(run, ctx.config.webhooks.pollMs);
  timer.unref();
  run();
  return async () => {
    stopped = true;
    unsubscribe();
    clearInterval(timer);
    await running;
  };
}
