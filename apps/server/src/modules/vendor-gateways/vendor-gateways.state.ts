import type { VendorGatewayRow } from './vendor-gateways.repository.js';

/** A vendor gateway's kind and path-secret hash, cached like credentials (30 s, dropped on rotation). */
export interface CachedVendorGateway {
  row: VendorGatewayRow;
  expires: number;
}

/** What vendor gateways keep in memory; a named field of the app context (`ctx.vendorGateways`). */
export interface VendorGatewayState {
  gateways: Map<string, CachedVendorGateway>;
  /** Each LoRaWAN bracelet's last daily step total, for the native `steps` since then (bounded). */
  stepTotals: Map<string, number>;
  /** When this process last logged a gateway's refused MQTT flood (one line a minute per gateway). */
  floodLogged: Map<string, number>;
}

export const createVendorGatewayState = (): VendorGatewayState => ({
  gateways: new Map(),
  stepTotals: new Map(),
  floodLogged: new Map(),
});

/** At most this many bracelets' step totals are remembered; the oldest entry makes room. */
export const MAX_STEP_TOTALS = 100_000;

/** Remembers a value in an insertion-ordered map of at most `max` entries (oldest evicted). */
export function rememberBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}
