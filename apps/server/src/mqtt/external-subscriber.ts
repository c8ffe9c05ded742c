import { hostname } from 'node:os';
import mqtt from 'mqtt';
import { gatewayTopics } from '@wearable/domain';
import type { AppContext } from '../context.js';
import { resolveGateway } from '../modules/ingestion/gateway-auth.js';
import { vendorGatewayOf } from '../modules/vendor-gateways/vendor-auth.js';
import {
  handleVendorMessage,
  SHARED_VENDOR_TOPICS,
  vendorTopic,
} from '../modules/vendor-gateways/vendor-mqtt.js';
import { handleBatchMessage } from './batch-message.js';
import type { MqttLog, MqttService } from './mqtt-types.js';

/**
 * Several servers share the batches through one shared subscription; each message reaches one
 * of them. The broker authenticates gateways and its ACL confines each to its own topics
 * (docs/gateway-protocol.md), so the gateway id is taken from the topic.
 */
export const SHARED_BATCHES_TOPIC = '$share/wearable-console/gateways/+/batches';
const TOPIC = /^gateways\/([^/]+)\/batches$/;

export async function startExternalSubscriber(
  ctx: AppContext,
  url: string,
  log: MqttLog,
): Promise<MqttService> {
  let client: mqtt.MqttClient | undefined = undefined;
  // The PUBACK goes out only when done() is called, i.e. after the batch committed.
  const customHandleAcks: mqtt.IClientOptions['customHandleAcks'] = (
    topic,
    message,
    _packet,
    done,
  ) => {
    const vendor = vendorTopic(topic);
    const gatewayId = vendor?.gatewayId ?? TOPIC.exec(topic)?.[1];
    if (!gatewayId) return done(0); // not ours: acknowledge and ignore
    resolveGateway(ctx, gatewayId)
      .then(async (gateway) => {
        if (!gateway) {
          log.warn(`MQTT batch on ${topic}: unknown gateway, dropped`);
          return done(0);
        }
        // A vendor payload on gateways/<id>/<kind>: only from a gateway registered as that kind.
        if (vendor && (await vendorGatewayOf(ctx, gatewayId))?.kind !== vendor.kind) {
          log.warn(
            `MQTT message on ${topic}: the gateway is not registered as ${vendor.kind}, dropped`,
          );
          return done(0);
        }
        const reply = vendor
          ? await handleVendorMessage(ctx, gateway, vendor.kind, message, (line) => log.warn(line))
          : await handleBatchMessage(ctx, gateway, message);
        done(0);
        client?.publish(gatewayTopics.results(gatewayId), JSON.stringify(reply), { qos: 1 });
      })
      .catch((err: unknown) => {
        log.error(
          `MQTT batch on ${topic} failed: ${(err as Error).message}; reconnecting for redelivery`,
        );
        done(err as Error);
        // Not acknowledged: drop the connection so the broker redelivers on reconnect.
        client?.stream.destroy();
      });
  };
  const shownUrl = url.replace(/\/\/[^@]*@/, '//***@');
  const connected = mqtt.connect(url, {
    // A stable id with a persistent session: batches published while we were down are kept. Each
    // worker of WORKERS=N has its own (its slot survives a restart), or they would take over each other.
    clientId:
      `wearable-console-${hostname()}-${ctx.config.port}${ctx.config.workers > 1 ? `-w${ctx.config.workerIndex}` : ''}`.slice(
        0,
        64,
      ),
    clean: false,
    // mqtt.js honours customHandleAcks only on MQTT 5; the session outlives a restart for a day.
    protocolVersion: 5,
    properties: { sessionExpiryInterval: 86_400 },
    reconnectPeriod: 1000,
    // We subscribe on every connection ourselves (below); mqtt.js would skip a topic it believes
    // subscribed, and resubscribes only when the broker lost the session.
    resubscribe: false,
    customHandleAcks,
  });
  client = connected;
  // Subscribed once the broker answers; a broker that is down does not stop the server
  // (HTTP ingestion goes on) and the client keeps reconnecting.
  const subscribed = new Promise<void>((resolve) => {
    connected.on('connect', () => {
      // Subscribed again on every connection, even when the broker kept our session: Mosquitto
      // restores a persistent session after its restart but not its shared subscriptions.
      const topics = [SHARED_BATCHES_TOPIC, ...SHARED_VENDOR_TOPICS];
      connected
        .subscribeAsync(topics, { qos: 1 })
        .then(() => log.info(`MQTT: subscribed to ${topics.join(', ')} on ${shownUrl}`))
        .catch((err: unknown) => log.error(`MQTT subscribe failed: ${(err as Error).message}`))
        .finally(resolve);
    });
  });
  connected.on('error', (err) => log.warn(`MQTT client (${shownUrl}): ${err.message}`));
  const waited = await Promise.race([
    subscribed.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
  ]);
  if (!waited) log.warn(`MQTT broker ${shownUrl} not reachable yet; retrying in the background`);
  return {
    mode: 'external',
    port: null,
    async close() {
      await connected.endAsync();
    },
  };
}
