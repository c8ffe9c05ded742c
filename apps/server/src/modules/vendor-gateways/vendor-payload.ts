import type { VendorGatewayKind } from '@wearable/domain';
import { type AdapterOutput, emptyOutput } from '../../adapters/adapter-output.js';
import { decodeAprilBrother } from '../../adapters/aprilbrother.js';
import { decodeChirpstack } from '../../adapters/chirpstack.js';
import { decodeIngics } from '../../adapters/ingics.js';
import { decodeMinew } from '../../adapters/minew.js';
import { decodeThingsStack } from '../../adapters/things-stack.js';

const refusedWhole = (reason: string): AdapterOutput => {
  const out = emptyOutput();
  out.refused.push({ item: null, reason });
  return out;
};

function json(body: Buffer): unknown {
  return JSON.parse(body.toString('utf8')) as unknown;
}

/**
 * A vendor payload as it arrived (HTTP body or MQTT message) to the adapter's output: the one
 * place that picks the decoder by the gateway's kind. `event` is ChirpStack's `?event=`.
 */
export function decodeVendorPayload(
  kind: VendorGatewayKind,
  body: Buffer,
  receivedAt: Date,
  event?: string,
): AdapterOutput {
  switch (kind) {
    case 'minew':
      return decodeMinew(body, receivedAt);
    case 'aprilbrother':
      return decodeAprilBrother(body, receivedAt);
    case 'ingics':
      return decodeIngics(body.toString('utf8'), receivedAt);
    case 'chirpstack':
    case 'thethingsstack': {
      let parsed: unknown;
      try {
        parsed = json(body);
      } catch {
        return refusedWhole('body is not JSON (set the integration’s encoding to JSON)');
      }
      return kind === 'chirpstack'
        ? decodeChirpstack(event ?? '', parsed, receivedAt)
        : decodeThingsStack(parsed, receivedAt);
    }
  }
}

/** The whole payload was refused (nothing in it could be read): the answer is 400 with the reason. */
export const refusedAsWhole = (output: AdapterOutput): string | null =>
  output.refused.length > 0 &&
  output.refused.every((r) => r.item === null) &&
  output.sightings.length === 0 &&
  output.readings.length === 0 &&
  output.events.length === 0
    ? output.refused.map((r) => r.reason).join('; ')
    : null;
