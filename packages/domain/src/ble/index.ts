export { GATT, type GattBytes, type GattDecoded } from './gatt.js';
export * from './ieee11073-float.js';
export * from './heart-rate-measurement.js';
export * from './battery-level.js';
export * from './temperature-measurement.js';
export * from './motion.js';
export * from './fall-detector.js';
export * from './man-down.js';
export * from './reading-fields.js';
