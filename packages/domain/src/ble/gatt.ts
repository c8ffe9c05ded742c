/**
 * What every GATT decoder here shares: the bytes it accepts and the result it gives.
 *
 * A decoder never throws on what a wearable sends: malformed bytes (too short, a length the
 * flags do not announce, a reserved value) come back as a refusal with a reason a person can
 * read, so the phone can show or log it and drop that one value.
 */

/** Assigned numbers of the services and characteristics we read (Bluetooth SIG Assigned Numbers). */
export const GATT = {
  heartRateService: 0x180d,
  heartRateMeasurement: 0x2a37,
  batteryService: 0x180f,
  batteryLevel: 0x2a19,
  healthThermometerService: 0x1809,
  temperatureMeasurement: 0x2a1c,
  intermediateTemperature: 0x2a1e,
} as const;

/** A decoded value, or why the bytes were refused. */
export type GattDecoded<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A characteristic value as Web Bluetooth (`DataView`) or a test (`Uint8Array`) holds it. */
export type GattBytes = DataView | Uint8Array;

export function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** A little-endian view over exactly the given bytes (GATT values are little-endian). */
export function viewOf(bytes: GattBytes): DataView {
  return bytes instanceof DataView
    ? bytes
    : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** "3 bytes" / "1 byte", for reasons. */
export function bytesText(n: number): string {
  return n === 1 ? '1 byte' : `${n} bytes`;
}
