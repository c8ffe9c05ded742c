import { type AdapterOutput, appendOutput, emptyOutput } from './adapter-output.js';
import { decodeLansitecUplink } from './lansitec.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** The largest LoRaWAN FRMPayload is 242 bytes. */
const MAX_PAYLOAD = 242;

/** Base64 text (as both network servers send FRMPayload) to bytes, or the reason it is not. */
export function base64Bytes(text: unknown, field: string): Uint8Array | string {
  if (text === undefined || text === null || text === '') return new Uint8Array();
  if (typeof text !== 'string' || !BASE64.test(text)) return `${field} is not base64`;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length > MAX_PAYLOAD ? `${field} is longer than ${MAX_PAYLOAD} bytes` : bytes;
}

/** The strongest of the receiving gateways' RSSIs, or null when none is reported. */
export function strongestRssi(rx: unknown, key = 'rssi'): number | null {
  if (!Array.isArray(rx)) return null;
  let best: number | null = null;
  for (const entry of rx) {
    const rssi =
      typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[key] : null;
    if (typeof rssi === 'number' && Number.isFinite(rssi) && (best === null || rssi > best))
      best = rssi;
  }
  return best;
}

/**
 * One uplink from a network server: the LoRaWAN device itself is a sighting (its DevEUI with the
 * strongest gateway RSSI: the network server's own metadata), and its payload is read as a
 * Lansitec bracelet message, whole or not at all: a refused payload yields no bracelet, only the
 * refusal (`FRMPayload: ...`), and the DevEUI's sighting stays.
 */
export function recordUplink(
  out: AdapterOutput,
  uplink: { devEui: string; at: string; rssi: number | null; bytes: Uint8Array },
): void {
  out.sightings.push({
    deviceId: uplink.devEui,
    rssi: uplink.rssi,
    at: uplink.at,
    frame: 'lorawan',
  });
  const payload = emptyOutput();
  decodeLansitecUplink(payload, uplink);
  if (payload.refused.length === 0) return appendOutput(out, payload);
  for (const r of payload.refused) out.refused.push({ ...r, reason: `FRMPayload: ${r.reason}` });
}
