import type { AdapterOutput } from './adapter-output.js';
import { hexOf, signedByte } from './bytes.js';

// Lansitec Smart LoRaWAN Bluetooth Gateway, document 990-01201 (rev. 1.73, 11/2021), uplink 4.4.4
// "Bracelet": the Lansitec gateway hears Bluetooth bracelets and forwards up to six per LoRaWAN
// uplink. TYPE (high nibble 0x9, low nibble M = 1..6 bracelets), then M records of
//   MAC(6) HB(1) STEPS(2, BE, steps today) BAT(1, %) SYSP(1) DIAP(1) CALO(2) RSSI(1, value - 256) SOS(1)
// then TOFF, N = ceil(M / 2) bytes: per bracelet 4 bits, the seconds between hearing it and sending.

const BRACELET_TYPE = 0x9;
const RECORD = 16;
const MAX_BRACELETS = 6;

/** One uplink's FRMPayload and what the network server says about it. */
export interface LorawanUplink {
  devEui: string;
  at: string;
  bytes: Uint8Array;
}

function offsetSeconds(bytes: Uint8Array, tail: number, index: number): number {
  const byte = bytes[tail + (index >> 1)] ?? 0;
  return index % 2 === 0 ? byte >> 4 : byte & 0x0f;
}

function recordBracelet(out: AdapterOutput, bytes: Uint8Array, start: number, at: string): void {
  const deviceId = hexOf(bytes, start, 6);
  const heartRate = bytes[start + 6] ?? 0;
  const stepsToday = ((bytes[start + 7] ?? 0) << 8) | (bytes[start + 8] ?? 0);
  const battery = bytes[start + 9] ?? 0;
  out.sightings.push({
    deviceId,
    rssi: signedByte(bytes[start + 14] ?? 0),
    at,
    frame: 'lansitec-bracelet',
  });
  // 0 means "not measured"; a value the server finds out of range is refused there with its reason.
  out.readings.push({
    serialNumber: deviceId,
    at,
    ...(heartRate > 0 ? { heartRate } : {}),
    ...(battery <= 100 ? { battery } : {}),
  });
  out.stepTotals.push({ deviceId, at, stepsToday });
  if ((bytes[start + 15] ?? 0) !== 0) out.events.push({ serialNumber: deviceId, type: 'SOS', at });
}

/**
 * The bracelets whose SOS byte would be set if the bytes were read as whole records from the
 * start (at most six): what a refused message may carry, named so that it is never lost silently.
 */
function possibleSos(bytes: Uint8Array): string[] {
  const ids: string[] = [];
  for (let start = 1; start + RECORD <= bytes.length && ids.length < MAX_BRACELETS; start += RECORD)
    if ((bytes[start + RECORD - 1] ?? 0) !== 0) ids.push(hexOf(bytes, start, 6));
  return ids;
}

/** Why a bracelet message cannot be read as it declares itself, or null when it can. */
function structureError(bytes: Uint8Array, count: number): string | null {
  if (count < 1 || count > MAX_BRACELETS)
    return `bracelet message declares ${count} bracelets, 1..6 allowed`;
  const expected = 1 + count * RECORD + Math.ceil(count / 2);
  return bytes.length === expected
    ? null
    : `bracelet message declares ${count} bracelet${count === 1 ? '' : 's'} (${expected} bytes), ${bytes.length} arrived`;
}

/**
 * Decodes a Lansitec Bluetooth gateway's bracelet message: heart rate, battery, steps today, the
 * bracelet's Bluetooth signal and SOS per bracelet. Other Lansitec messages (registration,
 * heartbeat, beacons) are not about bracelets and yield nothing. A bracelet message whose length
 * disagrees with its count is refused whole: which byte is which (the records' bounds, the time
 * offsets after them) depends on the count, so no record of it is certain. An SOS flag such a
 * message seems to carry is named in the refusal (`sos`), never opened nor dropped silently.
 */
export function decodeLansitecUplink(out: AdapterOutput, uplink: LorawanUplink): void {
  const { bytes } = uplink;
  const head = bytes[0];
  if (head === undefined || head >> 4 !== BRACELET_TYPE) return;
  const count = head & 0x0f;
  const error = structureError(bytes, count);
  if (error !== null) {
    const sos = possibleSos(bytes);
    out.refused.push({
      item: null,
      reason:
        `${error}: refused whole` +
        (sos.length === 0
          ? ''
          : `; it seems to carry an SOS of ${sos.join(', ')}, not opened: set the gateway to the 1.7x bracelet message`),
      ...(sos.length > 0 ? { sos } : {}),
    });
    return;
  }
  const sentAt = Date.parse(uplink.at);
  const tail = 1 + count * RECORD;
  for (let index = 0; index < count; index++) {
    const offset = offsetSeconds(bytes, tail, index);
    recordBracelet(out, bytes, 1 + index * RECORD, new Date(sentAt - offset * 1000).toISOString());
  }
}
