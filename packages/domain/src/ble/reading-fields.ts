import type { BraceletReading } from '../contracts/gateway.js';
import type { HeartRateMeasurement } from './heart-rate-measurement.js';
import type { TemperatureMeasurement } from './temperature-measurement.js';

/**
 * What a decoded GATT value puts in a gateway protocol reading (docs/phone-gateway.md). The
 * server still checks the ranges (heartRate 20..250, skinTemperature 25..45) with its reasons.
 */

/**
 * Heart Rate Measurement -> `heartRate` and `worn`. A band that cannot tell leaves `worn` out
 * (never `false`); a band that says it is not worn, or sends 0 bpm, gives no heart rate: that
 * number is not the wearer's.
 */
export function heartRateReadingFields(
  hrm: HeartRateMeasurement,
): Pick<BraceletReading, 'heartRate' | 'worn'> {
  return {
    ...(hrm.worn === false || hrm.heartRate === 0 ? {} : { heartRate: hrm.heartRate }),
    ...(hrm.worn === null ? {} : { worn: hrm.worn }),
  };
}

/** Temperature Measurement -> `skinTemperature` in Celsius, whatever unit the device sent. */
export function temperatureReadingFields(
  temperature: TemperatureMeasurement,
): Pick<BraceletReading, 'skinTemperature'> {
  return { skinTemperature: temperature.celsius };
}
