import { randomUUID } from 'node:crypto';
import { batchResult, type BatchResult, gatewayTopics } from '@wearable/domain';
import { connectAsync, type MqttClient } from 'mqtt';
import type { OutboundBatch } from '../simulation.js';
import {
  DriverError,
  type GatewayCredentials,
  type SimulatorDriver,
  toWireBatch,
} from './driver.js';

interface Waiter {
  resolve: (result: BatchResult) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Gateways over MQTT: one client per gateway (username = gateway id, password = credential),
 * batches published QoS 1 on gateways/<id>/batches with a batchId; the server's BatchResult
 * comes back on gateways/<id>/results and is matched by that batchId.
 */
export function createMqttDriver(
  brokerUrl: string,
  opts: { resultTimeoutMs?: number } = {},
): SimulatorDriver {
  const timeoutMs = opts.resultTimeoutMs ?? 30_000;
  const clients = new Map<string, Promise<MqttClient>>();
  const waiters = new Map<string, Waiter>();

  const connect = async (gateway: GatewayCredentials): Promise<MqttClient> => {
    const client = await connectAsync(brokerUrl, {
      // Client ids are bound to the gateway: its id, "/" and a suffix (docs/gateway-protocol.md).
      clientId: `${gateway.gatewayId}/sim-${randomUUID().slice(0, 8)}`,
      username: gateway.gatewayId,
      password: gateway.credential,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
    });
    client.on('message', (_topic, payload) => {
      let result: BatchResult;
      try {
        result = batchResult.parse(JSON.parse(payload.toString()));
      } catch {
        return;
      }
      const waiter = result.batchId ? waiters.get(result.batchId) : undefined;
      if (!waiter || !result.batchId) return;
      waiters.delete(result.batchId);
      clearTimeout(waiter.timer);
      waiter.resolve(result);
    });
    await client.subscribeAsync(gatewayTopics.results(gateway.gatewayId), { qos: 1 });
    return client;
  };

  const clientFor = (gateway: GatewayCredentials): Promise<MqttClient> => {
    let client = clients.get(gateway.gatewayId);
    if (!client) {
      client = connect(gateway).catch((err: Error) => {
        clients.delete(gateway.gatewayId);
        throw new DriverError(
          `MQTT connect to ${brokerUrl} as ${gateway.gatewayId}: ${err.message}`,
          true,
        );
      });
      clients.set(gateway.gatewayId, client);
    }
    return client;
  };

  return {
    name: 'mqtt',
    async send(
      gateway: GatewayCredentials,
      batch: OutboundBatch & { batchId?: string },
    ): Promise<BatchResult> {
      const client = await clientFor(gateway);
      const batchId = batch.batchId ?? `sim-${randomUUID()}`;
      const result = new Promise<BatchResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(batchId);
          reject(new DriverError(`no result for batch ${batchId} within ${timeoutMs} ms`, true));
        }, timeoutMs);
        waiters.set(batchId, { resolve, reject, timer });
      });
      try {
        await client.publishAsync(
          gatewayTopics.batches(gateway.gatewayId),
          JSON.stringify({ ...toWireBatch(batch), batchId }),
          { qos: 1 },
        );
      } catch (err) {
        const waiter = waiters.get(batchId);
        if (waiter) clearTimeout(waiter.timer);
        waiters.delete(batchId);
        throw new DriverError(
          `MQTT publish for ${gateway.gatewayId}: ${(err as Error).message}`,
          true,
        );
      }
      return result;
    },
    async close() {
      for (const waiter of waiters.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(new DriverError('driver closed', false));
      }
      waiters.clear();
      const all = await Promise.allSettled(clients.values());
      clients.clear();
      await Promise.all(
        all.map((c) => (c.status === 'fulfilled' ? c.value.endAsync() : Promise.resolve())),
      );
    },
  };
}
