import { type GattBytes, type GattDecoded, bytesText, refuse, viewOf } from './gatt.js';
import { readIeee11073Float } from './ieee11073-float.js';

/**
 * Temperature Measurement 0x2A1C and Intermediate Temperature 0x2A1E (Health Thermometer
 * Service 0x1809, HTS v1.0 sections 3.1 and 3.3; the same layout). Flags byte, then:
 * - the temperature, an IEEE 11073 32-bit FLOAT, Celsius (flags bit 0 = 0) or Fahrenheit (1);
 * - bit 1: a Time Stamp follows, a Date Time 0x2A08 (uint16 year, month, day, hours, minutes,
 *   seconds; year, month or day 0 = not known), the thermometer's local time;
 * - bit 2: a Temperature Type 0x2A1D follows (uint8, 1..9 below);
 * - bits 3-7 reserved for future use (ignored).
 */
export interface TemperatureMeasurement {
  /** Degrees Celsius, converted from Fahrenheit when the thermometer sent Fahrenheit. */
  celsius: number;
  /** The value and unit as sent. */
  value: number;
  unit: 'C' | 'F';
  timestamp?: DeviceDateTime;
  temperatureType?: TemperatureType;
}

/** A Date Time as the device sent it: its local time, no zone; null fields are "not known". */
export interface DeviceDateTime {
  year: number | null;
  month: number | null;
  day: number | null;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Temperature Type 0x2A1D: where on the body the thermometer measures. */
export const TEMPERATURE_TYPES = {
  1: 'ARMPIT',
  2: 'BODY',
  3: 'EAR',
  4: 'FINGER',
  5: 'GASTROINTESTINAL',
  6: 'MOUTH',
  7: 'RECTUM',
  8: 'TOE',
  9: 'TYMPANUM',
} as const;
export type TemperatureType = (typeof TEMPERATURE_TYPES)[keyof typeof TEMPERATURE_TYPES];

const FAHRENHEIT = 0x01;
const TIMESTAMP_PRESENT = 0x02;
const TYPE_PRESENT = 0x04;
const FLOAT_BYTES = 4;
const DATE_TIME_BYTES = 7;

/** Decodes a Temperature Measurement (0x2A1C) or Intermediate Temperature (0x2A1E) value. */
export function decodeTemperatureMeasurement(
  bytes: GattBytes,
): GattDecoded<TemperatureMeasurement> {
  const view = viewOf(bytes);
  if (view.byteLength < 1 + FLOAT_BYTES) {
    return refuse(
      `Temperature Measurement needs at least 5 bytes, got ${bytesText(view.byteLength)}`,
    );
  }
  const flags = view.getUint8(0);
  const hasTimestamp = (flags & TIMESTAMP_PRESENT) !== 0;
  const hasType = (flags & TYPE_PRESENT) !== 0;
  const expected = 1 + FLOAT_BYTES + (hasTimestamp ? DATE_TIME_BYTES : 0) + (hasType ? 1 : 0);
  if (view.byteLength !== expected) {
    return refuse(
      `flags 0x${flags.toString(16).padStart(2, '0')} announce ${bytesText(expected)}, got ${bytesText(view.byteLength)}`,
    );
  }

  const float = readIeee11073Float(view, 1);
  if (!float.ok) return refuse(`temperature: ${float.reason}`);
  const unit = (flags & FAHRENHEIT) !== 0 ? 'F' : 'C';
  const { value, exponent } = float.value;
  const result: TemperatureMeasurement = {
    celsius: unit === 'C' ? value : fahrenheitToCelsius(value, exponent),
    value,
    unit,
  };

  let offset = 1 + FLOAT_BYTES;
  if (hasTimestamp) {
    const timestamp = readDateTime(view, offset);
    if (!timestamp.ok) return refuse(`time stamp: ${timestamp.reason}`);
    result.timestamp = timestamp.value;
    offset += DATE_TIME_BYTES;
  }
  if (hasType) {
    const code = view.getUint8(offset);
    const type = (TEMPERATURE_TYPES as Record<number, TemperatureType | undefined>)[code];
    if (type === undefined) return refuse(`Temperature Type ${code} is reserved (1..9)`);
    result.temperatureType = type;
  }
  return { ok: true, value: result };
}

/** Fahrenheit to Celsius, kept to one more decimal than the thermometer sent (98.6 F -> 37 C). */
function fahrenheitToCelsius(fahrenheit: number, exponent: number): number {
  const decimals = Math.min(Math.max(-exponent, 0) + 1, 6);
  return Number((((fahrenheit - 32) * 5) / 9).toFixed(decimals));
}

/** Date Time 0x2A08: uint16 year 1582..9999, month 1..12, day 1..31 (0 = not known), h, m, s. */
function readDateTime(view: DataView, offset: number): GattDecoded<DeviceDateTime> {
  const year = view.getUint16(offset, true);
  const month = view.getUint8(offset + 2);
  const day = view.getUint8(offset + 3);
  const hours = view.getUint8(offset + 4);
  const minutes = view.getUint8(offset + 5);
  const seconds = view.getUint8(offset + 6);
  if (year !== 0 && (year < 1582 || year > 9999))
    return refuse(`year ${year} is outside 1582..9999`);
  if (month > 12) return refuse(`month ${month} is outside 1..12`);
  if (day > 31) return refuse(`day ${day} is outside 1..31`);
  if (hours > 23) return refuse(`hours ${hours} is outside 0..23`);
  if (minutes > 59) return refuse(`minutes ${minutes} is outside 0..59`);
  if (seconds > 59) return refuse(`seconds ${seconds} is outside 0..59`);
  return {
    ok: true,
    value: {
      year: year === 0 ? null : year,
      month: month === 0 ? null : month,
      day: day === 0 ? null : day,
      hours,
      minutes,
      seconds,
    },
  };
}
