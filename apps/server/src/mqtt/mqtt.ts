import type { AppContext } from '../context.js';
import { startEmbeddedBroker } from './embedded-broker.js';
import { startExternalSubscriber } from './external-subscriber.js';
import type { MqttLog, MqttService } from './mqtt-types.js';

export type { MqttLog, MqttService } from './mqtt-types.js';

/**
 * Starts MQTT ingestion: with MQTT_URL, a client of that broker; otherwise the embedded broker
 * on MQTT_PORT (0 = off; tests pass { port: 0 } via `ephemeral` for a free port).
 */
export async function startMqtt(
  ctx: AppContext,
  log: MqttLog,
  opts: { ephemeralPort?: boolean } = {},
): Promise<MqttService | null> {
  if (ctx.config.mqttUrl) return startExternalSubscriber(ctx, ctx.config.mqttUrl, log);
  if (opts.ephemeralPort) return startEmbeddedBroker(ctx, 0, log);
  if (ctx.config.mqttPort === 0) return null;
  return startEmbeddedBroker(ctx, ctx.config.mqttPort, log);
}
