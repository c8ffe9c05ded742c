import {
  type BraceletReading,
  type DeviceEvent,
  type GatewayBatch,
  RSSI_LIMITS,
} from '@wearable/domain';

/** Which kind of frame a device was heard in (docs/gateway-adapters.md lists where each comes from). */
export type SightingFrame =
  | 'ibeacon'
  | 'eddystone-uid'
  | 'eddystone-url'
  | 'eddystone-tlm'
  | 'ingics-ibs01'
  | 'lansitec-bracelet'
  | 'lorawan'
  | 'generic';

/** A device heard by the gateway: presence with signal strength, whether or not it is registered. */
export interface Sighting {
  /** Upper-case hex without separators: a Bluetooth MAC (12 digits) or a LoRaWAN DevEUI (16 digits). */
  deviceId: string;
  /** dBm; null when the format carries none. */
  rssi: number | null;
  /** ISO 8601 (UTC). */
  at: string;
  frame: SightingFrame;
  /** iBeacon `uuid/major/minor` or Eddystone UID `namespace/instance`, when the frame carries one. */
  beaconId?: string;
}

/**
 * One part of the vendor's payload that was refused; `item` is its 0-based place (line, device,
 * record, tag), null for the whole payload. A refused part yields nothing: no sighting, reading,
 * event or step total comes from it (docs/gateway-adapters.md, "Whole or nothing").
 */
export interface Refusal {
  item: number | null;
  reason: string;
  /**
   * Device ids whose SOS flag the refused part seems to carry (a Lansitec message whose count
   * disagrees with its bytes): not opened, since the structure is uncertain, but named in the
   * reason and logged as an error so that it cannot vanish silently.
   */
  sos?: string[];
}

/** A bracelet's step count since local midnight, as LoRaWAN bracelets report it. */
export interface StepTotal {
  deviceId: string;
  at: string;
  stepsToday: number;
}

/**
 * What every adapter yields: native batch items keyed by device id (the serial number is looked up
 * later), every sighting, and reasons for what it refused. Pure data, so the server's one ingestion
 * path can take it from here.
 */
export interface AdapterOutput {
  readings: BraceletReading[];
  events: DeviceEvent[];
  sightings: Sighting[];
  /** Daily totals: the native `steps` is a count since the previous reading, see `stepsSince`. */
  stepTotals: StepTotal[];
  refused: Refusal[];
}

export function emptyOutput(): AdapterOutput {
  return { readings: [], events: [], sightings: [], stepTotals: [], refused: [] };
}

/** Adds what one part decoded (decoded apart, so that a refused part can be left out whole). */
export function appendOutput(into: AdapterOutput, part: AdapterOutput): void {
  into.readings.push(...part.readings);
  into.events.push(...part.events);
  into.sightings.push(...part.sightings);
  into.stepTotals.push(...part.stepTotals);
  into.refused.push(...part.refused);
}

/** Whether the output yields anything at all (a sighting, reading, event or step total). */
export const yieldsAnything = (output: AdapterOutput): boolean =>
  output.sightings.length +
    output.readings.length +
    output.events.length +
    output.stepTotals.length >
  0;

/** The native `steps` (since the previous reading) from two daily totals; a smaller total means a new day. */
export function stepsSince(previousTotal: number | undefined, total: number): number {
  return previousTotal === undefined || total < previousTotal ? total : total - previousTotal;
}

export interface MappedBatch {
  batch: Required<Pick<GatewayBatch, 'readings' | 'events'>>;
  /**
   * Registered devices only heard (no reading of their own in the request): one presence reading
   * each, `{ serialNumber, at, rssi? }`: its latest sighting's time and its strongest signal. Kept apart from `batch`, since the
   * server coalesces them over a window (presence-coalescer.ts) while the batch passes at once.
   */
  presence: BraceletReading[];
  /** Devices heard but not registered: the latest sighting of each, never stored as readings. */
  unknownDevices: Sighting[];
}

/** The latest of each key's items, in first-seen order (`at` is ISO UTC, so text order is time order). */
function latestBy<T extends { at: string }>(items: T[], key: (item: T) => string): Map<string, T> {
  const latest = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    const seen = latest.get(k);
    if (!seen || item.at >= seen.at) latest.set(k, item);
  }
  return latest;
}

/** The sighting's signal as the native reading takes it (whole dBm within RSSI_LIMITS), or none. */
function nativeRssi(rssi: number | null): { rssi?: number } {
  if (rssi === null || !Number.isFinite(rssi)) return {};
  const dbm = Math.round(rssi);
  return dbm >= RSSI_LIMITS.min && dbm <= RSSI_LIMITS.max ? { rssi: dbm } : {};
}

/**
 * Turns an adapter's output into the native batch. A gateway reports a tag in every advertisement
 * it hears (up to ten a second), so per request each registered device gets one reading, its
 * latest, and one event of each type, the first (one press of a button stays set over several
 * advertisements). A registered device that was only heard gets a presence reading
 * `{ serialNumber, at, rssi }` in `presence` (its latest sighting's time, its strongest signal) (last seen, DISCONNECTION,
 * the place fold's signal per gateway). Readings and events carry the device's strongest signal in
 * the request too, so a button or bracelet that sends values or an SOS is placed like any tag.
 * Unregistered devices go to `unknownDevices`.
 */
export function toGatewayBatch(
  output: AdapterOutput,
  serialOf: (deviceId: string) => string | undefined,
): MappedBatch {
  // The strongest signal of each device in the request, as over a window (the place fold's input).
  const strongest = new Map<string, number>();
  for (const s of output.sightings) {
    if (s.rssi === null) continue;
    const seen = strongest.get(s.deviceId);
    if (seen === undefined || s.rssi > seen) strongest.set(s.deviceId, s.rssi);
  }
  const signalOf = (deviceId: string) => nativeRssi(strongest.get(deviceId) ?? null);
  const readings: BraceletReading[] = [];
  for (const [deviceId, r] of latestBy(output.readings, (r) => r.serialNumber)) {
    const serialNumber = serialOf(deviceId);
    if (serialNumber !== undefined) readings.push({ ...signalOf(deviceId), ...r, serialNumber });
  }
  const events: DeviceEvent[] = [];
  const firstEvents = new Map<string, DeviceEvent>();
  for (const e of output.events) {
    const key = `${e.serialNumber}/${e.type}`;
    const seen = firstEvents.get(key);
    if (!seen || e.at < seen.at) firstEvents.set(key, e);
  }
  for (const e of firstEvents.values()) {
    const serialNumber = serialOf(e.serialNumber);
    if (serialNumber !== undefined)
      events.push({ ...signalOf(e.serialNumber), ...e, serialNumber });
  }
  const withReading = new Set(output.readings.map((r) => r.serialNumber));
  const unknownDevices: Sighting[] = [];
  const presence: BraceletReading[] = [];
  for (const [deviceId, s] of latestBy(output.sightings, (s) => s.deviceId)) {
    const serialNumber = serialOf(deviceId);
    if (serialNumber === undefined) unknownDevices.push(s);
    else if (!withReading.has(deviceId))
      presence.push({ serialNumber, at: s.at, ...signalOf(deviceId) });
  }
  return { batch: { readings, events }, presence, unknownDevices };
}
