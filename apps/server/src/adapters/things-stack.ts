import { emptyOutput, type AdapterOutput } from './adapter-output.js';
import { euiId, isoAt } from './bytes.js';
import { base64Bytes, recordUplink, strongestRssi } from './lorawan-uplink.js';

// The Things Stack webhooks (lorawan-stack-docs doc/content/integrations/data-formats/_index.md):
// one JSON message per POST; an uplink carries end_device_ids.dev_eui and uplink_message with
// frm_payload (base64), rx_metadata[] (rssi per gateway antenna) and received_at.

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * Decodes one webhook message: `uplink_message` becomes the device's sighting and, for a Lansitec
 * bracelet message, its bracelets' readings and SOS. Other messages of an end device (join accept,
 * downlink events, location) are accepted without output; anything else is refused.
 */
export function decodeThingsStack(body: unknown, receivedAt: Date): AdapterOutput {
  const out = emptyOutput();
  const refuse = (reason: string) => {
    out.refused.push({ item: null, reason });
    return out;
  };
  const ids = field(body, 'end_device_ids');
  if (typeof ids !== 'object' || ids === null) {
    return refuse('not a The Things Stack message: end_device_ids is missing');
  }
  const uplink = field(body, 'uplink_message');
  if (uplink === undefined) return out;
  if (typeof uplink !== 'object' || uplink === null)
    return refuse('uplink_message is not an object');
  const devEui = euiId(field(ids, 'dev_eui'));
  if (devEui === null) return refuse('end_device_ids.dev_eui is missing or not 16 hex digits');
  const time = field(uplink, 'received_at') ?? field(body, 'received_at');
  const at = time === undefined ? isoAt(receivedAt) : typeof time === 'string' ? isoAt(time) : null;
  if (at === null) return refuse(`received_at ${String(time)} is not a time`);
  const bytes = base64Bytes(field(uplink, 'frm_payload'), 'uplink_message.frm_payload');
  if (typeof bytes === 'string') return refuse(bytes);
  recordUplink(out, { devEui, at, rssi: strongestRssi(field(uplink, 'rx_metadata')), bytes });
  return out;
}
