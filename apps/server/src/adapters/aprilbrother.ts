import { Decoder } from '@msgpack/msgpack';
import { emptyOutput, type AdapterOutput } from './adapter-output.js';
import { recordAdvertisement } from './advertisement.js';
import { hexBytes, hexOf, isoAt, macId, signedByte } from './bytes.js';

// April Brother AB BLE Gateway V4 (user guide, "Data Format": wiki.aprbrother.com/en/User_Guide_For_AB_BLE_Gateway_V4.html):
// HTTP POST or MQTT publish of one MessagePack map { v, mid, time, ip, mac, rssi?, iccid?, devices },
// each device `advertising type (1), MAC (6), RSSI (1, minus 256), advertisement data`.

const MAX_DEVICES = 5000;
const DEVICE_HEADER = 8;

// The limits are checked against each declared length before anything is allocated, so a
// 4 GiB bin32 or array32 header is refused at once. A legacy advertisement is 31 bytes and an
// extended one at most 255, so 1 KiB per device entry is generous.
const decoder = new Decoder({
  maxStrLength: 1024,
  maxBinLength: 1024,
  maxArrayLength: MAX_DEVICES,
  maxMapLength: 64,
  maxExtLength: 0,
});

function decodeDevice(out: AdapterOutput, item: number, entry: unknown, at: string): void {
  const refuse = (reason: string) => void out.refused.push({ item, reason });
  let bytes: Uint8Array;
  if (entry instanceof Uint8Array) bytes = entry;
  else if (typeof entry === 'string') {
    const hex = hexBytes(entry, 'device');
    if (typeof hex === 'string') return refuse(hex);
    bytes = hex;
  } else return refuse('device is neither binary nor hex text');
  if (bytes.length < DEVICE_HEADER) {
    return refuse(`device is ${bytes.length} bytes, shorter than type, MAC and RSSI (8)`);
  }
  const deviceId = hexOf(bytes, 1, 6);
  const rssi = signedByte(bytes[7] ?? 0);
  recordAdvertisement(out, item, { deviceId, rssi, at }, bytes.subarray(DEVICE_HEADER));
}

/**
 * Decodes one AB BLE Gateway V4 message: every device entry's advertisement becomes a sighting
 * (iBeacon, Eddystone, iBS01 button and battery, or a generic tag); a short or garbled entry is
 * refused by its index in `devices` while the others are kept. MessagePack that declares more than
 * the limits, is truncated or is not the gateway's map is refused as a whole.
 */
export function decodeAprilBrother(body: Uint8Array, receivedAt: Date): AdapterOutput {
  const out = emptyOutput();
  let message: unknown;
  try {
    message = decoder.decode(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    out.refused.push({ item: null, reason: `not MessagePack the gateway sends: ${reason}` });
    return out;
  }
  const map =
    typeof message === 'object' && message !== null && !(message instanceof Uint8Array)
      ? (message as Record<string, unknown>)
      : {};
  if (!Array.isArray(map.devices)) {
    out.refused.push({ item: null, reason: 'message has no "devices" array' });
    return out;
  }
  if (map.mac !== undefined && macId(map.mac) === null) {
    out.refused.push({ item: null, reason: 'gateway mac is not a MAC' });
    return out;
  }
  const at = isoAt(receivedAt) ?? receivedAt.toISOString();
  map.devices.forEach((entry: unknown, item) => decodeDevice(out, item, entry, at));
  return out;
}
