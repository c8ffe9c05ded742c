import { appendOutput, emptyOutput, type AdapterOutput } from './adapter-output.js';
import { recordAdvertisement } from './advertisement.js';
import { hexBytes, hexOf, isoAt, macId, numberIn, signedByte } from './bytes.js';

// Minew G1 / MG3 / MG4 gateways, HTTP POST. Formats as reelyActive's barnowl-minew decodes them
// (github.com/reelyactive/barnowl-minew, lib/binarypacketdecoder.js, jsonlongpacketdecoder.js,
// jsonrawpacketdecoder.js); docs/gateway-adapters.md has the byte layout.

const BINARY_LONG = 0xbb01;
const BINARY_SHORT = 0xbb00;
const MINEW_CONNECT = 0xbb02;
const FRAME_TAIL = 0xdd;
/** Header (2 + 4 + 6 + 2 bytes) and the tail byte. */
const MIN_FRAME = 15;
const MAX_DEVICES = 5000;

function u16(b: Uint8Array, i: number): number {
  return ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
}

interface BinaryTag {
  deviceId: string;
  adverts: { ad: Uint8Array; rssi: number }[];
}

/**
 * The tags of a BINARY-LONG frame, or why its structure disagrees with its bytes: the declared
 * total length, the DD tail, every tag and advertisement inside the frame and nothing after the
 * last tag.
 */
function binaryTags(frame: Uint8Array): BinaryTag[] | string {
  const declared = (frame[2] ?? 0) * 2 ** 24 + ((frame[3] ?? 0) << 16) + u16(frame, 4);
  if (declared !== frame.length) return `frame declares ${declared} bytes, ${frame.length} arrived`;
  const end = frame.length - 1;
  if (frame[end] !== FRAME_TAIL) return 'frame does not end with DD';
  const count = u16(frame, 12);
  const tags: BinaryTag[] = [];
  let i = 14;
  for (let tag = 0; tag < count; tag++) {
    if (i + 8 > end) return `frame declares ${count} tags, tag ${tag} runs past its end`;
    const deviceId = hexOf(frame, i, 6);
    const adverts = u16(frame, i + 6);
    const read: BinaryTag['adverts'] = [];
    let j = i + 8;
    for (let n = 0; n < adverts; n++) {
      const length = frame[j] ?? 0;
      if (j + length + 3 > end)
        return `tag ${tag}: advertisement ${n} of ${adverts} runs past the frame's end`;
      read.push({
        ad: frame.subarray(j + 1, j + 1 + length),
        rssi: signedByte(frame[j + length + 2] ?? 0),
      });
      j += length + 3;
    }
    tags.push({ deviceId, adverts: read });
    i = j;
  }
  return i === end ? tags : `${end - i} bytes after the last of ${count} tags`;
}

/**
 * BINARY-LONG: BB 01, total length (u32 BE), gateway MAC (6), tag count (u16 BE), then per tag its
 * MAC (6), advertisement count (u16 BE) and per advertisement `length, data[length], flags, rssi`;
 * DD ends the frame. Whole or nothing: a frame whose lengths, counts or tail disagree with its
 * bytes is refused whole (which byte is which depends on every length before it). In a sound
 * frame, a tag with a garbled advertisement (its AD structures come over the air from the tag)
 * is refused whole by its index, its other advertisements included, and the other tags are kept.
 */
export function decodeMinewBinary(frame: Uint8Array, receivedAt: Date): AdapterOutput {
  const out = emptyOutput();
  const refuse = (reason: string) => {
    out.refused.push({ item: null, reason });
    return out;
  };
  const header = u16(frame, 0);
  if (header === BINARY_SHORT || header === MINEW_CONNECT)
    return refuse('only BINARY-LONG is read: set the gateway’s BLE data format to BINARY-LONG');
  if (frame.length < MIN_FRAME || header !== BINARY_LONG) {
    return refuse(
      `not a BINARY-LONG frame (${frame.length} bytes, header ${hexOf(frame, 0, Math.min(2, frame.length))})`,
    );
  }
  const tags = binaryTags(frame);
  if (typeof tags === 'string') return refuse(`${tags}: refused whole`);
  const at = isoAt(receivedAt) ?? receivedAt.toISOString();
  tags.forEach(({ deviceId, adverts }, tag) => {
    const part = emptyOutput();
    for (const { ad, rssi } of adverts) recordAdvertisement(part, tag, { deviceId, rssi, at }, ad);
    if (part.refused.length === 0) appendOutput(out, part);
    else
      out.refused.push({
        item: tag,
        reason: `tag ${deviceId} refused whole: ${[...new Set(part.refused.map((r) => r.reason))].join('; ')}`,
      });
  });
  return out;
}

function deviceTime(value: unknown, receivedAt: Date): string | null {
  if (value === undefined) return isoAt(receivedAt);
  // MG3 sends epoch milliseconds, G1 and MG4 ISO 8601 text.
  if (typeof value === 'number') return isoAt(value < 1e11 ? value * 1000 : value);
  return typeof value === 'string' ? isoAt(value) : null;
}

function decodeDevice(out: AdapterOutput, item: number, device: unknown, receivedAt: Date): void {
  const refuse = (reason: string) => void out.refused.push({ item, reason });
  if (typeof device !== 'object' || device === null || Array.isArray(device)) {
    return refuse('is not an object');
  }
  const d = device as Record<string, unknown>;
  if (d.type === 'Gateway') return;
  const deviceId = macId(d.mac);
  if (deviceId === null) return refuse('mac is missing or not a MAC');
  const rssi = numberIn(d.rssi, -127, 20);
  if (rssi === null) return refuse('rssi is missing or not a number in -127..20');
  const at = deviceTime(d.timestamp, receivedAt);
  if (at === null) return refuse(`timestamp ${String(d.timestamp)} is not a time`);
  if (d.rawData === undefined && d.type === 'iBeacon') {
    // G1 JSON-LONG parses iBeacons itself: ibeaconUuid, ibeaconMajor, ibeaconMinor instead of rawData.
    const uuid =
      typeof d.ibeaconUuid === 'string' ? d.ibeaconUuid.replaceAll('-', '').toUpperCase() : '';
    const beaconId = `${uuid}/${String(d.ibeaconMajor)}/${String(d.ibeaconMinor)}`;
    if (!/^[0-9A-F]{32}\/\d{1,5}\/\d{1,5}$/.test(beaconId)) {
      return refuse('iBeacon record needs ibeaconUuid, ibeaconMajor and ibeaconMinor');
    }
    return void out.sightings.push({ deviceId, rssi, at, frame: 'ibeacon', beaconId });
  }
  const raw = d.rawData ?? '';
  if (typeof raw !== 'string') return refuse('rawData is not a hex string');
  const ad = hexBytes(raw, 'rawData');
  if (typeof ad === 'string') return refuse(ad);
  recordAdvertisement(out, item, { deviceId, rssi, at }, ad);
}

/**
 * JSON-LONG (first element `{"type":"Gateway","mac":...}`) and JSON-RAW (first element
 * `{"gateway":...}`): then one object per device heard, `mac`, `rssi`, `timestamp` and, where the
 * gateway sends it, `rawData` (hex advertisement). A device without `rawData` is presence only.
 */
export function decodeMinewJson(body: unknown, receivedAt: Date): AdapterOutput {
  const out = emptyOutput();
  const first: unknown = Array.isArray(body) ? body[0] : undefined;
  const head =
    typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
  if (!Array.isArray(body) || (head.type !== 'Gateway' && !('gateway' in head))) {
    out.refused.push({
      item: null,
      reason:
        'not Minew JSON-LONG or JSON-RAW: expected an array whose first element describes the gateway',
    });
    return out;
  }
  if (body.length > MAX_DEVICES + 1) {
    out.refused.push({ item: null, reason: `${body.length - 1} devices, at most ${MAX_DEVICES}` });
    return out;
  }
  for (let item = 1; item < body.length; item++) decodeDevice(out, item, body[item], receivedAt);
  return out;
}

/** A Minew POST body as it arrives: BINARY-LONG bytes, or JSON text (old G1 firmware labels both JSON). */
export function decodeMinew(body: Uint8Array, receivedAt: Date): AdapterOutput {
  if (body[0] === 0xbb) return decodeMinewBinary(body, receivedAt);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.length).toString('utf8'));
  } catch {
    const out = emptyOutput();
    out.refused.push({ item: null, reason: 'body is neither BINARY-LONG nor JSON' });
    return out;
  }
  return decodeMinewJson(parsed, receivedAt);
}
