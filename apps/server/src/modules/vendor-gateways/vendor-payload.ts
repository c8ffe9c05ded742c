import type { VendorGatewayKind } from '@wearable/domain';
import {
  type AdapterOutput,
  emptyOutput,
  type Refusal,
  yieldsAnything,
} from '../../adapters/adapter-output.js';
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

/** How many refusals a 400's message names (the rest are counted). */
const REASONS_NAMED = 5;

const reasonOf = (r: Refusal) => (r.item === null ? r.reason : `item ${r.item}: ${r.reason}`);

/**
 * Nothing in the payload could be read (something was refused and nothing yields a sighting,
 * reading, event or step total): the answer is 400 with the reasons, for every vendor kind. A
 * payload with nothing to refuse and nothing to yield (heartbeats, a network server's status
 * event) is answered 200.
 */
export function refusedAsWhole(output: AdapterOutput): string | null {
  if (output.refused.length === 0 || yieldsAnything(output)) return null;
  const named = output.refused.slice(0, REASONS_NAMED).map(reasonOf);
  const more = output.refused.length - named.length;
  return named.join('; ') + (more > 0 ? `; and ${more} more refused` : '');
}

/** The refusals as a 400's issues (at most 100), each with its item as the path. */
export const refusalIssues = (output: AdapterOutput): { path: string; message: string }[] =>
  output.refused.slice(0, 100).map((r) => ({
    path: r.item === null ? 'body' : `body[${r.item}]`,
    message: r.reason,
  }));

/**
 * The SOS flags a refused frame seems to carry (never opened, since the frame's structure is
 * uncertain): one line for the log, so that such an SOS is never lost silently, or null.
 */
export function possibleSosLine(gatewayId: string, output: AdapterOutput): string | null {
  const ids = output.refused.flatMap((r) => r.sos ?? []);
  return ids.length === 0
    ? null
    : `gateway ${gatewayId} sent a frame refused whole that seems to carry an SOS of ${ids.join(', ')}: no alert was opened (${output.refused
        .filter((r) => r.sos)
        .map(reasonOf)
        .join('; ')})`;
}
