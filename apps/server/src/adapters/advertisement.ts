import type { AdapterOutput, SightingFrame } from './adapter-output.js';
import { hexOf } from './bytes.js';

// Bluetooth Core Specification Supplement, part A 1.4 and 1.11: an advertisement is a run of
// AD structures `length, type, data[length - 1]`; a zero length ends the significant part.
const AD_SERVICE_DATA_16 = 0x16;
const AD_MANUFACTURER = 0xff;
const APPLE = 0x004c;
const INGICS = 0x0059;
const IBS01_CODE = 0xbc80;
const EDDYSTONE = 0xfeaa;

/** What a Bluetooth advertisement means to the product. */
export interface AdvertisementMeaning {
  frame: SightingFrame;
  beaconId?: string;
  /** Battery estimate in percent. */
  battery?: number;
  button?: boolean;
  fall?: boolean;
}

function u16le(b: Uint8Array, i: number): number {
  return (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
}
function u16be(b: Uint8Array, i: number): number {
  return ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
}

/** Apple iBeacon: 4C 00 02 15, UUID(16), major(2, BE), minor(2, BE), measured power(1). */
function iBeacon(data: Uint8Array, at: number, length: number): AdvertisementMeaning | null {
  if (length !== 25 || data[at + 2] !== 0x02 || data[at + 3] !== 0x15) return null;
  const uuid = hexOf(data, at + 4, 16);
  return { frame: 'ibeacon', beaconId: `${uuid}/${u16be(data, at + 20)}/${u16be(data, at + 22)}` };
}

/**
 * Ingics iBS01 family (iBS Sensor Beacon Payload, AP note BC0034): 59 00 80 BC, battery (u16 LE,
 * 10 mV), event flags (bit 0 button, bit 3 fall), ..., subtype at offset 13 (FF/00: old firmware).
 */
function ingicsIbs01(data: Uint8Array, at: number, length: number): AdvertisementMeaning | string {
  if (length < 7) return `Ingics iBS01 data is ${length} bytes, expected at least 7`;
  const volts = u16le(data, at + 4) / 100;
  const subtype = length > 13 ? (data[at + 13] ?? 0xff) : 0xff;
  const oldFirmware = subtype === 0xff || subtype === 0x00;
  // Old firmware iBS01T puts the temperature where the flags would be: no events then.
  const oldThermometer =
    oldFirmware && length > 8 && data[at + 7] !== 0xff && data[at + 8] !== 0xff;
  const flags = oldThermometer ? 0 : (data[at + 6] ?? 0);
  return {
    frame: 'ingics-ibs01',
    // A CR2032 cell: 3.0 V full, 2.0 V empty (our linear estimate; the tag reports volts only).
    battery: Math.round(Math.min(1, Math.max(0, volts - 2)) * 100),
    button: (flags & 0x01) !== 0,
    fall: (subtype === 0x06 || oldFirmware) && (flags & 0x08) !== 0,
  };
}

/** Eddystone (github.com/google/eddystone, protocol-specification.md): service data for UUID FEAA. */
function eddystone(data: Uint8Array, at: number, length: number): AdvertisementMeaning | string {
  const frameType = data[at + 2];
  const need = (frame: string, bytes: number) =>
    `Eddystone ${frame} frame is ${length - 2} bytes, expected at least ${bytes}`;
  if (frameType === 0x00) {
    if (length < 20) return need('UID', 18);
    return {
      frame: 'eddystone-uid',
      beaconId: `${hexOf(data, at + 4, 10)}/${hexOf(data, at + 14, 6)}`,
    };
  }
  if (frameType === 0x10) return length < 5 ? need('URL', 3) : { frame: 'eddystone-url' };
  if (frameType === 0x20) return length < 16 ? need('TLM', 14) : { frame: 'eddystone-tlm' };
  return { frame: 'generic' };
}

/**
 * Reads the AD structures of a raw advertisement and says what it means: iBeacon and Eddystone
 * frames and the Ingics iBS01 button tag are recognised, anything else is a generic tag (presence
 * only). Returns the reason when the structures overrun the bytes.
 */
export function readAdvertisement(ad: Uint8Array): AdvertisementMeaning | string {
  let found: AdvertisementMeaning | null = null;
  let i = 0;
  while (i < ad.length) {
    const length = ad[i] ?? 0;
    if (length === 0) break;
    if (i + 1 + length > ad.length) {
      return `AD structure at byte ${i} declares ${length} bytes, only ${ad.length - i - 1} left`;
    }
    if (!found) {
      const type = ad[i + 1];
      const data = i + 2;
      const size = length - 1;
      if (type === AD_MANUFACTURER && size >= 4) {
        const company = u16le(ad, data);
        if (company === APPLE) found = iBeacon(ad, data, size);
        else if (company === INGICS && u16le(ad, data + 2) === IBS01_CODE) {
          const ibs = ingicsIbs01(ad, data, size);
          if (typeof ibs === 'string') return ibs;
          found = ibs;
        }
      } else if (type === AD_SERVICE_DATA_16 && size >= 3 && u16le(ad, data) === EDDYSTONE) {
        const frame = eddystone(ad, data, size);
        if (typeof frame === 'string') return frame;
        found = frame;
      }
    }
    i += 1 + length;
  }
  return found ?? { frame: 'generic' };
}

/**
 * Adds what one advertisement says to the output: a sighting, the iBS01's battery as a reading,
 * its button as SOS and its fall flag as FALL; a garbled advertisement is refused as `item`.
 */
export function recordAdvertisement(
  out: AdapterOutput,
  item: number,
  heard: { deviceId: string; rssi: number | null; at: string },
  ad: Uint8Array,
): void {
  const meaning = readAdvertisement(ad);
  if (typeof meaning === 'string') {
    out.refused.push({ item, reason: meaning });
    return;
  }
  const { deviceId, at } = heard;
  out.sightings.push(
    meaning.beaconId === undefined
      ? { ...heard, frame: meaning.frame }
      : { ...heard, frame: meaning.frame, beaconId: meaning.beaconId },
  );
  if (meaning.battery !== undefined) {
    out.readings.push({ serialNumber: deviceId, at, battery: meaning.battery });
  }
  if (meaning.button) out.events.push({ serialNumber: deviceId, type: 'SOS', at });
  if (meaning.fall) out.events.push({ serialNumber: deviceId, type: 'FALL', at });
}
