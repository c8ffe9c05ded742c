import { createServer, type Server } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { gatewayTopics } from '@wearable/domain';
import type { AppContext } from '../context.js';
import { BUS_EVENTS, type BusEvents } from '../bus/events.js';
import {
  type AuthenticatedGateway,
  authenticateGateway,
} from '../modules/ingestion/gateway-auth.js';
import {
  handleVendorMessage,
  mayPublishVendor,
  vendorTopic,
} from '../modules/vendor-gateways/vendor-mqtt.js';
import { handleBatchMessage } from './batch-message.js';
import type { MqttLog, MqttService } from './mqtt-types.js';

const IDENTIFIER_REJECTED = 2;
const BAD_USERNAME_OR_PASSWORD = 4;

/**
 * A gateway's client id is its gateway id, or its gateway id, "/" and a suffix of its choosing
 * (several connections of one gateway). Bound to the authenticated gateway, another gateway cannot
 * take over its connection or its persistent session (queued results). "/" cannot appear in a
 * usable gateway id (it separates topic levels), so no id's suffix form equals another's.
 */
export const clientIdBelongsTo = (clientId: string, gatewayId: string): boolean =>
  !gatewayId.includes('/') && (clientId === gatewayId || clientId.startsWith(`${gatewayId}/`));
const SERVER_UNAVAILABLE = 3;

function authError(message: string, returnCode: number): AuthenticateError {
  const err = new Error(message) as Error & { returnCode: number };
  err.returnCode = returnCode;
  return err;
}

/**
 * The embedded broker. A gateway connects with its id and credential, may publish only to
 * gateways/<id>/batches and subscribe only to gateways/<id>/results. A batch is ingested
 * inside authorizePublish, which aedes runs BEFORE it sends the PUBACK: the acknowledgement
 * means "committed".
 */
export async function startEmbeddedBroker(
  ctx: AppContext,
  port: number,
  log: MqttLog,
): Promise<MqttService | null> {
  const gateways = new WeakMap<Client, AuthenticatedGateway>();
  const connected = new Set<Client>();
  const publishResult = (gatewayId: string, reply: unknown) =>
    broker.publish(
      {
        cmd: 'publish',
        topic: gatewayTopics.results(gatewayId),
        payload: Buffer.from(JSON.stringify(reply)),
        qos: 1,
        retain: false,
        dup: false,
      },
      (err) => err && log.warn(`MQTT result for ${gatewayId} not published: ${err.message}`),
    );
  const broker: Aedes = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      // Throttled per address like HTTP: a flood of unknown ids must not slow everyone's batches.
      const address = (client.conn as { remoteAddress?: string } | undefined)?.remoteAddress;
      authenticateGateway(ctx, username ?? '', password?.toString('utf8') ?? '', address).then(
        (gateway) => {
          if (!gateway) {
            return done(authError('Bad gateway id or credential', BAD_USERNAME_OR_PASSWORD), false);
          }
          // Checked here, before aedes registers the client and closes any other with this id.
          if (!clientIdBelongsTo(client.id, gateway.id)) {
            return done(
              authError(
                `Client id must be "${gateway.id}" or "${gateway.id}/…"`,
                IDENTIFIER_REJECTED,
              ),
              false,
            );
          }
          gateways.set(client, gateway);
          connected.add(client);
          done(null, true);
        },
        (err: unknown) => done(authError((err as Error).message, SERVER_UNAVAILABLE), false),
      );
    },
    authorizeSubscribe(client, subscription, done) {
      const gateway = gateways.get(client);
      // A refused subscription gets a failure code in the SUBACK; the connection stays.
      done(
        null,
        gateway && subscription.topic === gatewayTopics.results(gateway.id) ? subscription : null,
      );
    },
    authorizePublish(client, packet, done) {
      const gateway = client ? gateways.get(client) : undefined;
      if (!client) return done(null); // the broker's own publishes (results)
      const vendor = vendorTopic(packet.topic);
      if (gateway && vendor) {
        // A vendor gateway (April Brother, Ingics) publishes its own format on gateways/<id>/<kind>.
        const payload = Buffer.from(packet.payload);
        mayPublishVendor(ctx, gateway, vendor)
          .then(async (allowed) => {
            if (!allowed) return done(new Error(`publishing to ${packet.topic} is not allowed`));
            const reply = await handleVendorMessage(ctx, gateway, vendor.kind, payload, (line) =>
              log.warn(line),
            );
            done(null);
            publishResult(gateway.id, reply);
          })
          .catch((err: unknown) => {
            log.error(
              `MQTT ${vendor.kind} message from ${gateway.id} failed: ${(err as Error).message}`,
            );
            done(err as Error); // no PUBACK: the gateway sends it again
          });
        return;
      }
      if (!gateway || packet.topic !== gatewayTopics.batches(gateway.id)) {
        return done(new Error(`publishing to ${packet.topic} is not allowed`));
      }
      handleBatchMessage(ctx, gateway, Buffer.from(packet.payload)).then(
        (reply) => {
          done(null);
          publishResult(gateway.id, reply);
        },
        (err: unknown) => {
          log.error(`MQTT batch from ${gateway.id} failed: ${(err as Error).message}`);
          done(err as Error); // no PUBACK: the gateway sends it again
        },
      );
    },
    // Batches are consumed by the server, not relayed to anyone.
    authorizeForward(_client, packet) {
      return packet.topic.endsWith('/batches') ? null : packet;
    },
  });
  // A rotated credential: the gateway's open connections end now (it reconnects with the new one).
  const onCredential = (e: BusEvents['gateway.credentialChanged']) => {
    for (const client of connected) if (gateways.get(client)?.id === e.gatewayId) client.close();
  };
  broker.on('clientDisconnect', (client) => connected.delete(client));
  // aedes speaks MQTT 3.1 and 3.1.1 only: an MQTT 5 CONNECT gets CONNACK "unacceptable protocol
  // version" (return code 1). Say why in the log, once a minute, so the operator knows what to change.
  let protocolLogged = 0;
  broker.on('connectionError', (_client, err) => {
    if ((err as { errorCode?: number }).errorCode !== 1 || Date.now() - protocolLogged < 60_000)
      return;
    protocolLogged = Date.now();
    log.warn(
      'MQTT: a client asked for a protocol version the embedded broker does not speak (MQTT 5?) and was refused: ' +
        'connect with MQTT 3.1.1, or run an external broker (MQTT_URL) for MQTT 5 (docs/gateway-protocol.md)',
    );
  });
  ctx.bus.on(BUS_EVENTS.gatewayCredentialChanged, onCredential);
  const server: Server = createServer(broker.handle);
  const listening = await new Promise<boolean>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve(false);
      else reject(err);
    });
    server.listen(port, () => resolve(true));
  });
  if (!listening) {
    log.warn(`MQTT port ${port} is in use; the embedded broker is off, HTTP ingestion still works`);
    ctx.bus.off(BUS_EVENTS.gatewayCredentialChanged, onCredential);
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    return null;
  }
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    mode: 'embedded',
    port: actualPort,
    async close() {
      ctx.bus.off(BUS_EVENTS.gatewayCredentialChanged, onCredential);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
