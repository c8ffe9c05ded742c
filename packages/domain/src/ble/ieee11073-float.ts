import { type GattDecoded, refuse } from './gatt.js';

/**
 * IEEE 11073-20601 32-bit FLOAT (the Bluetooth SIG's "FLOAT", used by the Health Thermometer):
 * little-endian, the high byte a signed base-10 exponent, the low three bytes a signed
 * (two's complement) 24-bit mantissa; value = mantissa x 10^exponent.
 *
 * Five mantissas are not numbers (IEEE 11073-20601 Annex F, FLOAT-Type; the same constants are
 * in Wireshark's ftype-ieee-11073-float.c). The standard defines them with exponent 0; we
 * refuse these mantissas with any exponent, so a sensor's "no value" never becomes a reading.
 */
export const FLOAT_SPECIAL_MANTISSAS: ReadonlyMap<number, string> = new Map([
  [0x7fffff, 'NaN (not a number)'],
  [0x800000, 'NRes (not at this resolution)'],
  [0x7ffffe, '+INFINITY'],
  [0x800002, '-INFINITY'],
  [0x800001, 'a value reserved for future use'],
]);

export interface Ieee11073Float {
  value: number;
  mantissa: number;
  exponent: number;
}

/** Reads the FLOAT at `offset`; the caller has checked that 4 bytes are there. */
export function readIeee11073Float(view: DataView, offset: number): GattDecoded<Ieee11073Float> {
  const raw = view.getUint32(offset, true);
  const rawMantissa = raw & 0xffffff;
  const special = FLOAT_SPECIAL_MANTISSAS.get(rawMantissa);
  if (special !== undefined) return refuse(`the FLOAT is ${special}`);
  const mantissa = rawMantissa >= 0x800000 ? rawMantissa - 0x1000000 : rawMantissa;
  const exponent = view.getInt8(offset + 3);
  // Dividing by a power of ten keeps 366 x 10^-1 exactly the double 36.6.
  const value = exponent < 0 ? mantissa / 10 ** -exponent : mantissa * 10 ** exponent;
  return { ok: true, value: { value, mantissa, exponent } };
}
