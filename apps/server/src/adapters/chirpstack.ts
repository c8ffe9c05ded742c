import { emptyOutput, type AdapterOutput } from './adapter-output.js';
import { euiId, isoAt } from './bytes.js';
import { base64Bytes, recordUplink, strongestRssi } from './lorawan-uplink.js';

// ChirpStack v4 HTTP integration (chirpstack-docs src/chirpstack/integrations/http.md and events.md):
// POST <url>?event=<type> with the event as JSON (the "JSON" marshaler). `up` is the uplink event:
// deviceInfo.devEui, time, fPort, data (FRMPayload, base64), rxInfo[] with each gateway's rssi / snr.

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * Decodes one ChirpStack event: an `up` event becomes the device's sighting and, for a Lansitec
 * bracelet message, its bracelets' readings and SOS; the other events (status, join, ack, txack,
 * log, location, integration) say nothing about wearers and are accepted without output.
 */
export function decodeChirpstack(event: string, body: unknown, receivedAt: Date): AdapterOutput {
  const out = emptyOutput();
  if (event !== 'up') return out;
  const refuse = (reason: string) => {
    out.refused.push({ item: null, reason });
    return out;
  };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse('up event is not a JSON object (set the integration’s payload encoding to JSON)');
  }
  const devEui = euiId(field(field(body, 'deviceInfo'), 'devEui'));
  if (devEui === null) return refuse('deviceInfo.devEui is missing or not 16 hex digits');
  const time = field(body, 'time');
  const at = time === undefined ? isoAt(receivedAt) : typeof time === 'string' ? isoAt(time) : null;
  if (at === null) return refuse(`time ${String(time)} is not a time`);
  const bytes = base64Bytes(field(body, 'data'), 'data');
  if (typeof bytes === 'string') return refuse(bytes);
  recordUplink(out, { devEui, at, rssi: strongestRssi(field(body, 'rxInfo')), bytes });
  return out;
}
