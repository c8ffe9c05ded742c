import { VENDOR_MQTT_KINDS } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { AuthenticatedGateway } from '../ingestion/ingestion.service.js';
import { vendorGatewayOf } from './vendor-auth.js';
import { GatewayRateLimitedError, ingestVendorOutput, type VendorResult } from './vendor-ingest.js';
import { decodeVendorPayload, possibleSosLine, refusedAsWhole } from './vendor-payload.js';
import { rememberBounded } from './vendor-gateways.state.js';

type VendorMqttKind = (typeof VENDOR_MQTT_KINDS)[number];
const TOPIC = new RegExp(`^gateways/([^/]+)/(${VENDOR_MQTT_KINDS.join('|')})$`);

/** `gateways/<id>/aprilbrother` or `gateways/<id>/ingics`: the gateway id and kind, else null. */
export function vendorTopic(topic: string): { gatewayId: string; kind: VendorMqttKind } | null {
  const match = TOPIC.exec(topic);
  return match?.[1] && match[2] ? { gatewayId: match[1], kind: match[2] as VendorMqttKind } : null;
}

/** The vendor MQTT topics as the external broker's shared subscriptions. */
export const SHARED_VENDOR_TOPICS = VENDOR_MQTT_KINDS.map(
  (kind) => `$share/wearable-console/gateways/+/${kind}`,
);

export type VendorReply =
  VendorResult | { error: { code: 'VALIDATION_FAILED' | 'GATEWAY_RATE_LIMITED'; message: string } };

/**
 * Whether this gateway may publish its vendor payload on this topic: its own id, and the kind it
 * was registered with (a gateway of another kind, or another gateway's topic, is refused).
 */
export async function mayPublishVendor(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  topic: { gatewayId: string; kind: VendorMqttKind },
): Promise<boolean> {
  if (topic.gatewayId !== gateway.id) return false;
  return (await vendorGatewayOf(ctx, gateway.id))?.kind === topic.kind;
}

/**
 * One vendor MQTT message (an April Brother MessagePack map, Ingics report lines): decoded and
 * ingested through the same path as HTTP. A payload refused whole or a flood beyond the gateway's
 * limit is answered (and acknowledged: sending it again would not help); a database failure throws
 * so the message is not acknowledged and is redelivered.
 */
export async function handleVendorMessage(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  kind: VendorMqttKind,
  payload: Buffer,
  warn: (line: string) => void,
): Promise<VendorReply> {
  const output = decodeVendorPayload(kind, payload, ctx.now());
  const sos = possibleSosLine(gateway.id, output);
  if (sos !== null) warn(sos);
  const whole = refusedAsWhole(output);
  if (whole !== null) return { error: { code: 'VALIDATION_FAILED', message: `payload: ${whole}` } };
  try {
    return await ingestVendorOutput(ctx, { ...gateway, kind }, output);
  } catch (error) {
    if (!(error instanceof GatewayRateLimitedError)) throw error;
    // One log line a minute per gateway: a flood must not flood the log too.
    const logged = ctx.vendorGateways.floodLogged.get(gateway.id) ?? 0;
    if (Date.now() - logged > 60_000) {
      rememberBounded(ctx.vendorGateways.floodLogged, gateway.id, Date.now(), 10_000);
      warn(`MQTT ${kind} messages from ${gateway.id} beyond its rate limit are dropped`);
    }
    return { error: { code: 'GATEWAY_RATE_LIMITED', message: error.message } };
  }
}
