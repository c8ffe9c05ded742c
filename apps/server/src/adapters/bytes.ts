// Byte helpers shared by the decoders: strict hex, device ids, signed bytes, times.

const HEX = /^(?:[0-9A-Fa-f]{2})*$/;
const MAC = /^[0-9A-Fa-f]{2}(?::?[0-9A-Fa-f]{2}){5}$/;
const EUI64 = /^[0-9A-Fa-f]{16}$/;

/** Hex text to bytes, or the reason it is not hex (Buffer.from would silently stop at the first bad digit). */
export function hexBytes(text: string, field: string, maxBytes = 512): Uint8Array | string {
  if (text.length > maxBytes * 2) return `${field} is longer than ${maxBytes} bytes`;
  if (!HEX.test(text)) return `${field} is not hex (an even number of 0-9A-F digits)`;
  return Buffer.from(text, 'hex');
}

/** A Bluetooth MAC as the product stores it (`AABBCCDDEEFF`), or null when the text is not one. */
export function macId(text: unknown): string | null {
  if (typeof text !== 'string' || !MAC.test(text)) return null;
  return text.replaceAll(':', '').toUpperCase();
}

/** A LoRaWAN DevEUI (16 hex digits, upper case), or null. */
export function euiId(text: unknown): string | null {
  return typeof text === 'string' && EUI64.test(text) ? text.toUpperCase() : null;
}

/** Bytes [start, start + length) as upper-case hex. */
export function hexOf(bytes: Uint8Array, start = 0, length = bytes.length - start): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, length)
    .toString('hex')
    .toUpperCase();
}

/** A byte the vendor documents as "value - 256 = RSSI" (two's complement). */
export function signedByte(value: number): number {
  return value > 127 ? value - 256 : value;
}

/** The instant as the batch carries it, or null when the input is not a real time. */
export function isoAt(value: Date | number | string): string | null {
  const d = value instanceof Date ? value : new Date(value);
  const t = d.getTime();
  if (!Number.isFinite(t)) return null;
  const year = d.getUTCFullYear();
  return year >= 2000 && year <= 9999 ? d.toISOString() : null;
}

/** A number in [min, max], or null. */
export function numberIn(value: unknown, min: number, max: number): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
    ? value
    : null;
}
