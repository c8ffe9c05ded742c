import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { BusTransport } from './transport.js';

/** The NATS subject every server subscribes to (core NATS: at most once, fan-out to all). */
export const CLUSTER_SUBJECT = 'wearable.bus';

type Log = { warn(obj: object, msg: string): void };

/**
 * The cross-server bus on NATS (NATS_URL): one connection per process, publishing and
 * subscribing on one subject (so one server's events keep their order). The client reconnects
 * for ever (every 250 ms-2 s); subscriptions are restored by the client, and the bus
 * resynchronises after each reconnection (cluster-bus.ts).
 */
export function openNatsTransport(
  url: string,
  log: Log,
): BusTransport & { connection(): NatsConnection | null } {
  let nc: NatsConnection | null = null;
  let up = false;
  let closed = false;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const transport = {
    onMessage: (_payload: string) => undefined as void,
    onLost: () => undefined as void,
    onReconnect: () => undefined as void,
    ready: () => ready,
    connected: () => up,
    connection: () => nc,
    send(payload: string) {
      // While reconnecting the client buffers what is published and sends it once connected again.
      if (!nc || closed) return false;
      try {
        nc.publish(CLUSTER_SUBJECT, payload);
        return true;
      } catch (err) {
        log.warn({ err }, 'cluster publish failed');
        return false;
      }
    },
    async close() {
      closed = true;
      up = false;
      await nc?.drain().catch(() => undefined);
    },
  };

  const start = async (): Promise<void> => {
    while (!closed) {
      try {
        const c = await connect({
          servers: url.replace(/^nats:\/\//, ''),
          name: 'wearable-console',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 250,
          reconnectJitter: 100,
        });
        if (closed) return void (await c.close());
        nc = c;
        c.subscribe(CLUSTER_SUBJECT, {
          callback: (err, msg) => {
            if (!err) transport.onMessage(msg.string());
          },
        });
        await c.flush();
        up = true;
        markReady();
        void (async () => {
          for await (const s of c.status()) {
            if (s.type === 'disconnect') {
              if (up) {
                up = false;
                transport.onLost();
              }
            } else if (s.type === 'reconnect') {
              up = true;
              transport.onReconnect();
            }
          }
        })();
        return;
      } catch (err) {
        log.warn({ err }, `NATS ${url} not reachable; retrying`);
        await new Promise((r) => setTimeout(r, 1_000).unref());
      }
    }
  };
  void start();
  return transport;
}
