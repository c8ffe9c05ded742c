import type { FastifyBaseLogger } from 'fastify';
import type { GatewayRefusalReason } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import type { Metrics } from '../../observability/metrics.js';
import { gatewayRefusalsRepository, type RefusalCount } from './gateway-refusals.repository.js';
import { classifyRefusal } from './refusal-reasons.js';

/** How often refusals are written: the gateway page is at most this late for another server's. */
export const REFUSALS_WRITE_MS = 5_000;
/** A gateway's refusals are logged at most this often (what came between is summed into the next). */
export const REFUSALS_WARN_MS = 60_000;
/** Groups waiting (all gateways) beyond which a write starts at once, so memory stays bounded. */
const MAX_WAITING = 10_000;

/** A refused item as ingestion answered it, with the item as sent. */
export interface RefusedItem {
  list: string;
  reason: string;
  raw: unknown;
}

interface Warning {
  at: number;
  organizationId: string;
  counts: Map<GatewayRefusalReason, number>;
}

/**
 * Refusals counted in memory between writes, per (gateway, reason, serial), and written every
 * REFUSALS_WRITE_MS in one upsert for all gateways (gateway-refusals.repository.ts): a batch with
 * items refused costs a map update, one with none costs nothing (docs/decisions/0014). Writes run one
 * after another. A failed write is reported and its counts dropped (the gateway sends again). Each
 * gateway's refusals are also logged, at most once a minute, naming reason and count (never its
 * credential, never an item's values).
 */
export class GatewayRefusalsBuffer {
  private waiting = new Map<string, RefusalCount>();
  private warnings = new Map<string, Warning>();
  private writes: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private onError: (err: unknown) => void = () => undefined;

  constructor(
    private readonly db: Queryable,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date,
    private readonly metrics?: Pick<Metrics, 'refused'>,
  ) {}

  /** A batch's refused items (only called when it has some). */
  add(gateway: { id: string; organizationId: string }, items: readonly RefusedItem[]): void {
    if (items.length === 0) return;
    const at = this.now();
    const counts = new Map<GatewayRefusalReason, number>();
    for (const item of items) {
      const c = classifyRefusal(item.reason, item.raw);
      counts.set(c.reason, (counts.get(c.reason) ?? 0) + 1);
      const key = `${gateway.id}\u0000${c.reason}\u0000${c.serial}`;
      const seen = this.waiting.get(key);
      if (seen) {
        seen.times++;
        seen.lastAt = at;
        seen.list = item.list;
        seen.detail = c.detail;
      } else {
        this.waiting.set(key, {
          gatewayId: gateway.id,
          reason: c.reason,
          serial: c.serial,
          list: item.list,
          detail: c.detail,
          times: 1,
          firstAt: at,
          lastAt: at,
        });
      }
    }
    this.warn(gateway, counts, at.getTime());
    if (this.metrics) for (const [reason, n] of counts) this.metrics.refused(reason, n);
    if (this.waiting.size > MAX_WAITING) void this.flush().catch(this.onError);
  }

  private warn(
    gateway: { id: string; organizationId: string },
    counts: Map<GatewayRefusalReason, number>,
    at: number,
  ): void {
    let w = this.warnings.get(gateway.id);
    if (!w) {
      if (this.warnings.size > MAX_WAITING) this.warnings.clear();
      w = { at: -Infinity, organizationId: gateway.organizationId, counts: new Map() };
      this.warnings.set(gateway.id, w);
    }
    for (const [reason, n] of counts) w.counts.set(reason, (w.counts.get(reason) ?? 0) + n);
    if (at - w.at < REFUSALS_WARN_MS) return;
    const refused = Object.fromEntries(w.counts);
    const count = [...w.counts.values()].reduce((a, b) => a + b, 0);
    this.log.warn(
      { gatewayId: gateway.id, organizationId: w.organizationId, refused, count },
      `gateway ${gateway.id}: ${count} item(s) refused (${Object.entries(refused)
        .map(([r, n]) => `${n} ${r}`)
        .join(', ')})`,
    );
    w.at = at;
    w.counts = new Map();
  }

  /**
   * Writes what is waiting (only `gatewayId`'s, when given); resolves when it and every write
   * begun before it are done.
   */
  flush(gatewayId?: string): Promise<void> {
    const counts: RefusalCount[] = [];
    for (const [key, c] of this.waiting) {
      if (gatewayId !== undefined && c.gatewayId !== gatewayId) continue;
      counts.push(c);
      this.waiting.delete(key);
    }
    const now = this.now();
    const write = this.writes.then(() => gatewayRefusalsRepository(this.db).record(counts, now));
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** Writes every REFUSALS_WRITE_MS until close(). */
  start(onError: (err: unknown) => void): void {
    this.onError = onError;
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.waiting.size > 0) this.flush().catch(onError);
    }, REFUSALS_WRITE_MS);
    this.timer.unref();
  }

  /** Stops the timer and writes what is waiting (before the database closes). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
