import type { AppContext } from '../../context.js';
import { type BraceletRow, findBraceletsBySerial } from './ingestion.repository.js';

/**
 * Bracelet lookups are cached for a few seconds per organisation and serial: a gateway sends
 * the same bracelets every second. Unknown serials are never cached (a new bracelet works at
 * once); a reassignment to another wearer is seen within BRACELET_CACHE_MS.
 */
const BRACELET_CACHE_MS = 5_000;
const braceletCaches = new WeakMap<
  AppContext,
  Map<string, { row: BraceletRow; expires: number }>
>();
export async function braceletsOf(
  ctx: AppContext,
  organizationId: string,
  serials: string[],
): Promise<Map<string, BraceletRow>> {
  let cache = braceletCaches.get(ctx);
  if (!cache)
    braceletCaches.set(ctx, (cache = new Map<string, { row: BraceletRow; expires: number }>()));
  const now = Date.now();
  const found = new Map<string, BraceletRow>();
  const missing: string[] = [];
  for (const serial of serials) {
    const hit = cache.get(`${organizationId}|${serial}`);
    if (hit && hit.expires > now) found.set(serial, hit.row);
    else missing.push(serial);
  }
  if (missing.length > 0) {
    for (const row of await findBraceletsBySerial(ctx.db, organizationId, missing)) {
      found.set(row.serialNumber, row);
      cache.set(`${organizationId}|${row.serialNumber}`, { row, expires: now + BRACELET_CACHE_MS });
    }
    if (cache.size > 100_000) cache.clear();
  }
  return found;
}

/** gateways.last_seen_at is written at most every 10 s per gateway and process. */
const GATEWAY_TOUCH_MS = 10_000;
const gatewayTouches = new WeakMap<AppContext, Map<string, number>>();
export function shouldTouchGateway(ctx: AppContext, gatewayId: string, now: Date): boolean {
  let touched = gatewayTouches.get(ctx);
  if (!touched) gatewayTouches.set(ctx, (touched = new Map<string, number>()));
  const last = touched.get(gatewayId);
  if (last !== undefined && Math.abs(now.getTime() - last) < GATEWAY_TOUCH_MS) return false;
  touched.set(gatewayId, now.getTime());
  return true;
}
