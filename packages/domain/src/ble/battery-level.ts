import { type GattBytes, type GattDecoded, bytesText, refuse, viewOf } from './gatt.js';

/**
 * Battery Level 0x2A19 (Battery Service 0x180F; GATT Specification Supplement, Battery Level):
 * one uint8, the charge in percent, 0..100; 101..255 are reserved for future use.
 */
export function decodeBatteryLevel(bytes: GattBytes): GattDecoded<{ percent: number }> {
  const view = viewOf(bytes);
  if (view.byteLength !== 1) {
    return refuse(`Battery Level is 1 byte, got ${bytesText(view.byteLength)}`);
  }
  const percent = view.getUint8(0);
  if (percent > 100) return refuse(`Battery Level ${percent} is reserved (0..100 %)`);
  return { ok: true, value: { percent } };
}
