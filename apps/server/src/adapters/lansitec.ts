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
 * Decodes a Lansitec Bluetooth gateway's bracelet message: heart rate, battery, steps today, the
 * bracelet's Bluetooth signal and SOS per bracelet. Other Lansitec messages (registration,
 * heartbeat, beacons) are not about bracelets and yield nothing; a bracelet message whose length
 * does not match its count keeps the complete records and refuses the rest by index.
 */
export function decodeLansitecUplink(out: AdapterOutput, uplink: LorawanUplink): void {
  const { bytes } = uplink;
  const head = bytes[0];
  if (head === undefined || head >> 4 !== BRACELET_TYPE) return;
  const count = head & 0x0f;
  if (count < 1 || count > MAX_BRACELETS) {
    out.refused.push({
      item: null,
      reason: `bracelet message declares ${count} bracelets, 1..6 allowed`,
    });
    return;
  }
  const tail = 1 + count * RECORD;
  const expected = tail + Math.ceil(count / 2);
  if (bytes.length !== expected) {
    out.refused.push({
      item: null,
      reason: `bracelet message declares ${count} bracelets (${expected} bytes), ${bytes.length} arrived`,
    });
  }
  const sentAt = Date.parse(uplink.at);
  const withOffsets = bytes.length >= expected;
  for (let index = 0; index < count; index++) {
    const start = 1 + index * RECORD;
    if (start + RECORD > bytes.length) {
      out.refused.push({ item: index, reason: `bracelet ${index} is truncated` });
      continue;
    }
    const offset = withOffsets ? offsetSeconds(bytes, tail, index) : 0;
    recordBracelet(out, bytes, start, new Date(sentAt - offset * 1000).toISOString());
  }
}
