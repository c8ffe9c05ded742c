import { type GattBytes, type GattDecoded, bytesText, refuse, viewOf } from './gatt.js';

/**
 * Heart Rate Measurement 0x2A37 (Heart Rate Service 0x180D, HRS v1.0 section 3.1; GATT
 * Specification Supplement, Heart Rate Measurement). Flags byte, then:
 * - bit 0: heart rate as uint8 (0) or uint16 (1), beats per minute;
 * - bits 1-2, sensor contact: 0 and 1 the feature is not supported, 2 supported but no contact,
 *   3 supported and in contact;
 * - bit 3: Energy Expended present, uint16 kilojoules since it was last reset;
 * - bit 4: RR-Intervals present, the rest of the value, uint16 each, in 1/1024 s, oldest first;
 * - bits 5-7 reserved for future use (ignored, as the specification asks of a client).
 */
export interface HeartRateMeasurement {
  /** Beats per minute as the band sent it (the gateway protocol checks its 20..250 range). */
  heartRate: number;
  /** The band's sensor contact: true worn, false not worn, null when the band cannot tell. */
  worn: boolean | null;
  /** Kilojoules, when the band sent the field. */
  energyExpendedKj?: number;
  /** Beat-to-beat intervals in milliseconds (1/1024 s units converted), oldest first. */
  rrIntervalsMs: number[];
}

const FORMAT_UINT16 = 0x01;
const CONTACT_BITS = 0x06;
const CONTACT_SUPPORTED_NOT_DETECTED = 0x04;
const CONTACT_SUPPORTED_DETECTED = 0x06;
const ENERGY_PRESENT = 0x08;
const RR_PRESENT = 0x10;

/** Decodes one Heart Rate Measurement notification. */
export function decodeHeartRateMeasurement(bytes: GattBytes): GattDecoded<HeartRateMeasurement> {
  const view = viewOf(bytes);
  if (view.byteLength < 2) {
    return refuse(
      `Heart Rate Measurement needs at least 2 bytes, got ${bytesText(view.byteLength)}`,
    );
  }
  const flags = view.getUint8(0);
  const wide = (flags & FORMAT_UINT16) !== 0;
  const hasEnergy = (flags & ENERGY_PRESENT) !== 0;
  const hasRr = (flags & RR_PRESENT) !== 0;
  const fixed = 1 + (wide ? 2 : 1) + (hasEnergy ? 2 : 0);
  if (view.byteLength < fixed) {
    return refuse(
      `flags 0x${hex(flags)} announce ${bytesText(fixed)} before any RR-Interval, got ${bytesText(view.byteLength)}`,
    );
  }
  const rest = view.byteLength - fixed;
  if (!hasRr && rest > 0) {
    return refuse(
      `flags 0x${hex(flags)} announce ${bytesText(fixed)}, got ${bytesText(view.byteLength)}`,
    );
  }
  if (hasRr && (rest === 0 || rest % 2 !== 0)) {
    return refuse(
      `RR-Intervals are 2 bytes each and at least one is announced, got ${bytesText(rest)} after the fixed fields`,
    );
  }

  const heartRate = wide ? view.getUint16(1, true) : view.getUint8(1);
  let offset = wide ? 3 : 2;
  let energyExpendedKj: number | undefined;
  if (hasEnergy) {
    energyExpendedKj = view.getUint16(offset, true);
    offset += 2;
  }
  const rrIntervalsMs: number[] = [];
  for (; offset < view.byteLength; offset += 2) {
    rrIntervalsMs.push((view.getUint16(offset, true) * 1000) / 1024);
  }
  return {
    ok: true,
    value: {
      heartRate,
      worn: wornFromContactBits(flags & CONTACT_BITS),
      ...(energyExpendedKj === undefined ? {} : { energyExpendedKj }),
      rrIntervalsMs,
    },
  };
}

function wornFromContactBits(bits: number): boolean | null {
  if (bits === CONTACT_SUPPORTED_DETECTED) return true;
  if (bits === CONTACT_SUPPORTED_NOT_DETECTED) return false;
  return null;
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}
