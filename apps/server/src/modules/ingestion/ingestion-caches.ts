import type { PendingBraceletConfig } from '@wearable/domain';
import type { Db } from '../../db/client.js';
import { GatewayThrottle } from './gateway-throttle.js';
import { type BraceletRow, ingestionRepository } from './ingestion.repository.js';

/** A gateway's organisation and credential hash, cached for a short while (gateway-auth.ts). */
export interface CachedGateway {
  organizationId: string;
  /** The gateway's type (`STATIONARY`, `SMARTPHONE`). */
  type: string;
  hash: Buffer;
  expires: number;
}

/** What ingestion keeps in memory between batches; a named field of the app context. */
export interface IngestionState {
  /** Bracelets by `organisation|serial`, for BRACELET_CACHE_MS. */
  bracelets: Map<string, { row: BraceletRow; expires: number }>;
  /**
   * Configuration each gateway's bracelets should run and it has not acknowledged, by gateway id, for
   * PENDING_CONFIG_CACHE_MS (every batch's answer carries it; see pendingConfigOf).
   */
  pendingConfig: Map<string, { rows: PendingBraceletConfig[]; expires: number }>;
  /** When this process last wrote a gateway's last_seen_at. */
  gatewayTouches: Map<string, number>;
  /** Gateway credentials by gateway id. */
  gateways: Map<string, CachedGateway>;
  /** Credential look-ups running, by gateway id (concurrent batches share one). */
  gatewayLookups: Map<string, Promise<CachedGateway | null>>;
  /** Failed gateway authentications per client address (gateway-throttle.ts). */
  gatewayThrottle: GatewayThrottle;
  /** Gateway HTTP batches in progress (queued for the database or running). */
  backlog: { pending: number };
}

export const createIngestionState = (): IngestionState => ({
  bracelets: new Map(),
  pendingConfig: new Map(),
  gatewayTouches: new Map(),
  gateways: new Map(),
  gatewayLookups: new Map(),
  gatewayThrottle: new GatewayThrottle(),
  backlog: { pending: 0 },
});

/**
 * Bracelet lookups are cached for a few seconds per organisation and serial: a gateway sends
 * the same bracelets every second. Unknown serials are never cached (a new bracelet works at
 * once); a reassignment to another wearer is seen within BRACELET_CACHE_MS.
 */
const BRACELET_CACHE_MS = 5_000;
export async function braceletsOf(
  ctx: { ingestion: IngestionState; db: Db },
  organizationId: string,
  serials: string[],
): Promise<Map<string, BraceletRow>> {
  const cache = ctx.ingestion.bracelets;
  const now = Date.now();
  const found = new Map<string, BraceletRow>();
  const missing: string[] = [];
  for (const serial of serials) {
    const hit = cache.get(`${organizationId}|${serial}`);
    if (hit && hit.expires > now) found.set(serial, hit.row);
    else missing.push(serial);
  }
  if (missing.length > 0) {
    for (const row of await ingestionRepository(ctx.db).findBraceletsBySerial(
      organizationId,
      missing,
    )) {
      found.set(row.serialNumber, row);
      cache.set(`${organizationId}|${row.serialNumber}`, { row, expires: now + BRACELET_CACHE_MS });
    }
    if (cache.size > 100_000) cache.clear();
  }
  return found;
}

/** gateways.last_seen_at is written at most every 10 s per gateway and process. */
const GATEWAY_TOUCH_MS = 10_000;
export function shouldTouchGateway(
  ctx: { ingestion: IngestionState },
  gatewayId: string,
  now: Date,
): boolean {
  const touched = ctx.ingestion.gatewayTouches;
  const last = touched.get(gatewayId);
  if (last !== undefined && Math.abs(now.getTime() - last) < GATEWAY_TOUCH_MS) return false;
  touched.set(gatewayId, now.getTime());
  return true;
}
