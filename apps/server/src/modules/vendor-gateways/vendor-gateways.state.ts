import type { Queryable } from '../../db/client.js';
import { PresenceCoalescer } from './presence-coalescer.js';
import { UnknownDevicesBuffer } from './unknown-devices.buffer.js';
import type { VendorGatewayRow } from './vendor-gateways.repository.js';

/** A vendor gateway's kind and path-secret hash, cached like credentials (30 s, dropped on rotation). */
export interface CachedVendorGateway {
  row: VendorGatewayRow;
  expires: number;
}

/**
 * Which organisation's bracelet a heard device is, remembered per device id (serial numbers are
 * unique across organisations): a gateway reports the same tags every second (docs/gateway-adapters.md,
 * "Mapping devices to bracelets"). "No bracelet" is remembered too, so the tags of the "heard, not
 * registered" list cost no query per request either. A device is registered for a gateway only when
 * the remembered organisation is the gateway's: another organisation's gateway never resolves it.
 *
 * Fresh: registering, linking, handing over or unlinking a bracelet emits `bracelet.changed` after its
 * commit (on every server, through the cluster bus), which drops that device's entry at once, whatever
 * organisation it was in, and makes a look-up that overlapped it answer without keeping what it read.
 * A bracelet row changed by hand in SQL is seen within OWNER_TTL_MS.
 */
export interface DeviceOwners {
  /** Device id -> the organisation with that bracelet (null: none), and until when it holds; bounded. */
  entries: Map<string, { organizationId: string | null; expires: number }>;
  /** Bumped by every change; a look-up that began in another generation keeps nothing. */
  generation: number;
}

/** What vendor gateways keep in memory; a named field of the app context (`ctx.vendorGateways`). */
export interface VendorGatewayState {
  gateways: Map<string, CachedVendorGateway>;
  /** Each LoRaWAN bracelet's last daily step total, for the native `steps` since then (bounded). */
  stepTotals: Map<string, number>;
  /** When this process last logged a gateway's refused MQTT flood (one line a minute per gateway). */
  floodLogged: Map<string, number>;
  /** Which organisation's bracelet each heard device is (registered-devices.ts). */
  owners: DeviceOwners;
  /** Devices heard and not registered, written every few seconds (closed by closeContext). */
  unknownDevices: UnknownDevicesBuffer;
  /** Registered tags' presence-only sightings, coalesced per window (closed by closeContext). */
  presence: PresenceCoalescer;
}

export const createVendorGatewayState = (
  db: Queryable,
  unknownDevicesPerGateway: number,
  presenceIntervalMs: number,
  now: () => number,
): VendorGatewayState => ({
  gateways: new Map(),
  stepTotals: new Map(),
  floodLogged: new Map(),
  owners: { entries: new Map(), generation: 0 },
  unknownDevices: new UnknownDevicesBuffer(db, unknownDevicesPerGateway),
  presence: new PresenceCoalescer(presenceIntervalMs, now),
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
