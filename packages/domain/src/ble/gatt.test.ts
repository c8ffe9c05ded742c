/**
 * Test vectors for the GATT decoders, written byte by byte from the field layouts of:
 * - Bluetooth SIG, Heart Rate Service v1.0 (HRS_SPEC_V10), 3.1 Heart Rate Measurement, and the
 *   GATT Specification Supplement's Heart Rate Measurement (also the SIG's 2011 characteristic
 *   XML, org.bluetooth.characteristic.heart_rate_measurement, as kept in oesmith/gatt-xml);
 * - Bluetooth SIG, Battery Service v1.0 / GATT Specification Supplement, Battery Level;
 * - Bluetooth SIG, Health Thermometer Service v1.0 (HTS_SPEC_V10), 3.1 Temperature Measurement,
 *   3.2 Temperature Type, 3.3 Intermediate Temperature; org.bluetooth.characteristic.
 *   temperature_measurement (oesmith/gatt-xml) and Date Time 0x2A08;
 * - IEEE 11073-20601 Annex F (FLOAT-Type: 8-bit signed exponent, 24-bit signed mantissa, the
 *   reserved values NaN 0x007FFFFF, NRes 0x00800000, +INF 0x007FFFFE, -INF 0x00800002, RFU
 *   0x00800001; the same constants as Wireshark's epan/ftypes/ftype-ieee-11073-float.c) and
 *   HL7's Personal Health Device IG page "IEEE 11073 FLOATs and SFLOATs" (exponent gives the
 *   decimal places: 366 x 10^-1 = 36.6).
 * The SIG documents print the layouts, not example bytes, so each vector below is ours, built
 * from those layouts; the comment next to it says how.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeBatteryLevel,
  decodeHeartRateMeasurement,
  decodeTemperatureMeasurement,
  heartRateReadingFields,
  temperatureReadingFields,
  type GattDecoded,
} from './index.js';

const bytes = (...b: number[]) => new Uint8Array(b);

function ok<T>(decoded: GattDecoded<T>): T {
  if (!decoded.ok) throw new Error(`refused: ${decoded.reason}`);
  return decoded.value;
}

function reason<T>(decoded: GattDecoded<T>): string {
  if (decoded.ok) throw new Error(`decoded: ${JSON.stringify(decoded.value)}`);
  return decoded.reason;
}

describe('Heart Rate Measurement 0x2A37', () => {
  it('reads the 8-bit value format (flags bit 0 = 0)', () => {
    // flags 0x00: uint8 value, no contact feature, no energy, no RR; 0x48 = 72 bpm.
    expect(ok(decodeHeartRateMeasurement(bytes(0x00, 0x48)))).toEqual({
      heartRate: 72,
      worn: null,
      rrIntervalsMs: [],
    });
  });

  it('reads the 16-bit value format, little-endian (flags bit 0 = 1)', () => {
    // flags 0x01: uint16; 0x48 0x00 = 72; 0x2C 0x01 = 300, a value only the 16-bit format holds.
    expect(ok(decodeHeartRateMeasurement(bytes(0x01, 0x48, 0x00))).heartRate).toBe(72);
    expect(ok(decodeHeartRateMeasurement(bytes(0x01, 0x2c, 0x01))).heartRate).toBe(300);
  });

  it.each([
    // bits 2..1 = 00 and 01: "Sensor Contact feature is not supported" -> we cannot tell.
    [0x00, null],
    [0x02, null],
    // 10: supported, contact not detected -> not worn; 11: supported and detected -> worn.
    [0x04, false],
    [0x06, true],
  ])('sensor contact bits in flags 0x%s give worn = %s', (flags, worn) => {
    expect(ok(decodeHeartRateMeasurement(bytes(flags, 0x48))).worn).toBe(worn);
  });

  it('reads Energy Expended in kilojoules when flags bit 3 is set', () => {
    // flags 0x08; 72 bpm; energy 0x2710 = 10,000 kJ.
    expect(ok(decodeHeartRateMeasurement(bytes(0x08, 0x48, 0x10, 0x27)))).toEqual({
      heartRate: 72,
      worn: null,
      energyExpendedKj: 10_000,
      rrIntervalsMs: [],
    });
  });

  it('reads one RR-Interval in 1/1024 s (flags bit 4)', () => {
    // flags 0x10; 72 bpm; RR 0x0400 = 1024/1024 s = 1000 ms.
    expect(ok(decodeHeartRateMeasurement(bytes(0x10, 0x48, 0x00, 0x04))).rrIntervalsMs).toEqual([
      1000,
    ]);
  });

  it('reads several RR-Intervals, oldest first, up to the end of the value', () => {
    // flags 0x10; 75 bpm; 0x0300 = 768 -> 750 ms, 0x0333 = 819 -> 799.8046875 ms,
    // 0x0366 = 870 -> 849.609375 ms.
    const hrm = ok(
      decodeHeartRateMeasurement(bytes(0x10, 0x4b, 0x00, 0x03, 0x33, 0x03, 0x66, 0x03)),
    );
    expect(hrm.rrIntervalsMs).toEqual([750, 799.8046875, 849.609375]);
  });

  it('reads every field at once: 16-bit value, contact, energy and two RR-Intervals', () => {
    // flags 0x1E | 0x01 = 0x1F; 75 bpm (0x004B); worn; energy 0x03E8 = 1000 kJ; RR 1000, 750 ms.
    expect(
      ok(decodeHeartRateMeasurement(bytes(0x1f, 0x4b, 0x00, 0xe8, 0x03, 0x00, 0x04, 0x00, 0x03))),
    ).toEqual({ heartRate: 75, worn: true, energyExpendedKj: 1000, rrIntervalsMs: [1000, 750] });
  });

  it('ignores the reserved flag bits 5-7, as the specification asks of a client', () => {
    expect(ok(decodeHeartRateMeasurement(bytes(0xe0, 0x48))).heartRate).toBe(72);
  });

  it('reads a value that starts inside a larger buffer (a DataView with an offset)', () => {
    const buffer = new Uint8Array([0xaa, 0xaa, 0x06, 0x5a, 0xbb]).buffer;
    // Only bytes 2..3: flags 0x06 (worn), 0x5A = 90 bpm.
    expect(ok(decodeHeartRateMeasurement(new DataView(buffer, 2, 2)))).toEqual({
      heartRate: 90,
      worn: true,
      rrIntervalsMs: [],
    });
    expect(ok(decodeHeartRateMeasurement(new Uint8Array(buffer, 2, 2))).heartRate).toBe(90);
  });

  it.each([
    [[], 'Heart Rate Measurement needs at least 2 bytes, got 0 bytes'],
    [[0x00], 'Heart Rate Measurement needs at least 2 bytes, got 1 byte'],
    // 16-bit format announced, one value byte sent.
    [[0x01, 0x48], 'flags 0x01 announce 3 bytes before any RR-Interval, got 2 bytes'],
    // Energy announced, one of its two bytes sent.
    [[0x08, 0x48, 0x10], 'flags 0x08 announce 4 bytes before any RR-Interval, got 3 bytes'],
    // Nothing more announced, a byte more sent.
    [[0x00, 0x48, 0x00], 'flags 0x00 announce 2 bytes, got 3 bytes'],
    // RR announced, none sent; half an RR sent.
    [[0x10, 0x48], 'RR-Intervals are 2 bytes each and at least one is announced, got 0 bytes'],
    [[0x10, 0x48, 0x00], 'RR-Intervals are 2 bytes each and at least one is announced, got 1 byte'],
  ])('refuses %j: %s', (input, expected) => {
    expect(reason(decodeHeartRateMeasurement(bytes(...input)))).toContain(expected);
  });
});

describe('Battery Level 0x2A19', () => {
  it.each([
    [0x00, 0],
    [0x51, 81],
    [0x64, 100],
  ])('reads 0x%s as %s %', (byte, percent) => {
    expect(ok(decodeBatteryLevel(bytes(byte)))).toEqual({ percent });
  });

  it.each([
    [[0x65], 'Battery Level 101 is reserved (0..100 %)'],
    [[0xff], 'Battery Level 255 is reserved (0..100 %)'],
    [[], 'Battery Level is 1 byte, got 0 bytes'],
    [[0x50, 0x00], 'Battery Level is 1 byte, got 2 bytes'],
  ])('refuses %j: %s', (input, expected) => {
    expect(reason(decodeBatteryLevel(bytes(...input)))).toBe(expected);
  });
});

describe('Temperature Measurement 0x2A1C / Intermediate Temperature 0x2A1E', () => {
  it('reads a Celsius FLOAT: mantissa 366 (0x00016E), exponent -1 (0xFF) = 36.6 C', () => {
    expect(ok(decodeTemperatureMeasurement(bytes(0x00, 0x6e, 0x01, 0x00, 0xff)))).toEqual({
      celsius: 36.6,
      value: 36.6,
      unit: 'C',
    });
  });

  it('reads two decimals: mantissa 3456 (0x000D80), exponent -2 (0xFE) = 34.56 C', () => {
    expect(ok(decodeTemperatureMeasurement(bytes(0x00, 0x80, 0x0d, 0x00, 0xfe))).celsius).toBe(
      34.56,
    );
  });

  it('reads a positive exponent and a negative (two’s complement) mantissa', () => {
    // 4 x 10^1 = 40; mantissa 0xFFFFCE = -50, exponent -1 -> -5.0.
    expect(ok(decodeTemperatureMeasurement(bytes(0x00, 0x04, 0x00, 0x00, 0x01))).celsius).toBe(40);
    expect(ok(decodeTemperatureMeasurement(bytes(0x00, 0xce, 0xff, 0xff, 0xff))).celsius).toBe(-5);
  });

  it('converts Fahrenheit (flags bit 0 = 1) to Celsius: 986 x 10^-1 = 98.6 F = 37 C', () => {
    expect(ok(decodeTemperatureMeasurement(bytes(0x01, 0xda, 0x03, 0x00, 0xff)))).toEqual({
      celsius: 37,
      value: 98.6,
      unit: 'F',
    });
    // 93.2 F (932 = 0x0003A4) = 34 C, a skin temperature.
    expect(ok(decodeTemperatureMeasurement(bytes(0x01, 0xa4, 0x03, 0x00, 0xff))).celsius).toBe(34);
  });

  it('reads the Time Stamp (bit 1) and the Temperature Type (bit 2), in that order', () => {
    // flags 0x06; 36.6 C; Date Time 2026 (0x07EA) -11-26 07:15:30; type 2 = body (general).
    const value = bytes(0x06, 0x6e, 0x01, 0x00, 0xff, 0xea, 0x07, 11, 26, 7, 15, 30, 0x02);
    expect(ok(decodeTemperatureMeasurement(value))).toEqual({
      celsius: 36.6,
      value: 36.6,
      unit: 'C',
      timestamp: { year: 2026, month: 11, day: 26, hours: 7, minutes: 15, seconds: 30 },
      temperatureType: 'BODY',
    });
  });

  it('reads a Time Stamp whose date is not known (year, month, day 0) as nulls', () => {
    const value = bytes(0x02, 0x6e, 0x01, 0x00, 0xff, 0, 0, 0, 0, 12, 0, 0);
    expect(ok(decodeTemperatureMeasurement(value)).timestamp).toEqual({
      year: null,
      month: null,
      day: null,
      hours: 12,
      minutes: 0,
      seconds: 0,
    });
  });

  it.each([
    [1, 'ARMPIT'],
    [4, 'FINGER'],
    [9, 'TYMPANUM'],
  ])('reads Temperature Type %s alone (bit 2) as %s', (code, type) => {
    const value = bytes(0x04, 0x6e, 0x01, 0x00, 0xff, code);
    expect(ok(decodeTemperatureMeasurement(value)).temperatureType).toBe(type);
  });

  it.each([
    // Exponent 0 and the reserved mantissas of IEEE 11073-20601, little-endian.
    [[0xff, 0xff, 0x7f, 0x00], 'NaN (not a number)'],
    [[0x00, 0x00, 0x80, 0x00], 'NRes (not at this resolution)'],
    [[0xfe, 0xff, 0x7f, 0x00], '+INFINITY'],
    [[0x02, 0x00, 0x80, 0x00], '-INFINITY'],
    [[0x01, 0x00, 0x80, 0x00], 'a value reserved for future use'],
    // The NaN mantissa with exponent -1 is refused too (module comment: any exponent).
    [[0xff, 0xff, 0x7f, 0xff], 'NaN (not a number)'],
  ])('refuses the FLOAT %j: %s', (float, name) => {
    expect(reason(decodeTemperatureMeasurement(bytes(0x00, ...float)))).toBe(
      `temperature: the FLOAT is ${name}`,
    );
  });

  it.each([
    [[0x00, 0x6e, 0x01, 0x00], 'Temperature Measurement needs at least 5 bytes, got 4 bytes'],
    // Time Stamp announced, missing.
    [[0x02, 0x6e, 0x01, 0x00, 0xff], 'flags 0x02 announce 12 bytes, got 5 bytes'],
    // Type announced, missing; nothing announced, a byte more sent.
    [[0x04, 0x6e, 0x01, 0x00, 0xff], 'flags 0x04 announce 6 bytes, got 5 bytes'],
    [[0x00, 0x6e, 0x01, 0x00, 0xff, 0x02], 'flags 0x00 announce 5 bytes, got 6 bytes'],
    // Temperature Type 0 and 10 are reserved.
    [[0x04, 0x6e, 0x01, 0x00, 0xff, 0], 'Temperature Type 0 is reserved (1..9)'],
    [[0x04, 0x6e, 0x01, 0x00, 0xff, 10], 'Temperature Type 10 is reserved (1..9)'],
    // Month 13, hour 24.
    [
      [0x02, 0x6e, 0x01, 0x00, 0xff, 0xea, 0x07, 13, 1, 0, 0, 0],
      'time stamp: month 13 is outside 1..12',
    ],
    [
      [0x02, 0x6e, 0x01, 0x00, 0xff, 0xea, 0x07, 1, 1, 24, 0, 0],
      'time stamp: hours 24 is outside 0..23',
    ],
  ])('refuses %j: %s', (input, expected) => {
    expect(reason(decodeTemperatureMeasurement(bytes(...input)))).toBe(expected);
  });
});

describe('decoded values as gateway protocol reading fields', () => {
  const hrm = (flags: number, bpm: number) => ok(decodeHeartRateMeasurement(bytes(flags, bpm)));

  it.each([
    // Contact not supported: the heart rate, no worn field (unknown is never sent as false).
    [0x00, 72, { heartRate: 72 }],
    // Supported and in contact: both.
    [0x06, 72, { heartRate: 72, worn: true }],
    // Supported, no contact: not worn, and its heart rate is not the wearer's.
    [0x04, 72, { worn: false }],
    // 0 bpm (some bands send it while they search): no heart rate.
    [0x00, 0, {}],
  ])('flags 0x%s with %s bpm -> %j', (flags, bpm, fields) => {
    expect(heartRateReadingFields(hrm(flags, bpm))).toEqual(fields);
  });

  it('a Fahrenheit thermometer gives skinTemperature in Celsius', () => {
    const temperature = ok(decodeTemperatureMeasurement(bytes(0x01, 0xa4, 0x03, 0x00, 0xff)));
    expect(temperatureReadingFields(temperature)).toEqual({ skinTemperature: 34 });
  });
});
