import { createServer } from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayTopics, normalizeSerial } from '@wearable/domain';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import { startEmbeddedBroker } from './embedded-broker.js';
import { type MqttLog, type MqttService, startMqtt } from './mqtt.js';

const lines: string[] = [];
const log: MqttLog = {
  info: (m) => lines.push(m),
  warn: (m) => lines.push(m),
  error: (m) => lines.push(m),
};

let t: TestApp;
let broker: MqttService;
beforeAll(async () => {
  t = await createTestApp();
  const started = await startMqtt(t.ctx, log, { ephemeralPort: true });
  if (!started) throw new Error('embedded broker did not start');
  broker = started;
});
afterAll(async () => {
  await broker?.close();
  await t?.close();
});

async function newWearer(): Promise<WearerRecord> {
  const org = await createOrganization(t.db);
  return createWearer(t.db, { organizationId: org.id });
}
const connectAs = (
  w: WearerRecord,
  password = w.gateway.credential,
  clientId = `${w.gateway.id}/test`,
  more: mqtt.IClientOptions = {},
) =>
  mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
    username: w.gateway.id,
    password,
    reconnectPeriod: 0,
    clientId,
    ...more,
  });
const readingCount = async (wearerId: string) =>
  Number(
    (
      await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1',
        [wearerId],
      )
    )[0]?.n,
  );
const nextMessage = (client: mqtt.MqttClient) =>
  new Promise<unknown>((resolve) =>
    client.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
  );

describe('embedded MQTT broker', () => {
  it('acknowledges a QoS 1 batch only after its readings are stored, and answers on the results topic', async () => {
    const w = await newWearer();
    const client = await connectAs(w);
    const granted = await client.subscribeAsync(gatewayTopics.results(w.gateway.id), { qos: 1 });
    expect(granted[0]?.qos).toBe(1);
    const readings = Array.from({ length: 50 }, (_, i) => ({
      serialNumber: w.bracelet.serialNumber,
      at: new Date(Date.now() - (60 - i) * 1000).toISOString(),
      heartRate: 70 + (i % 5),
    }));
    const result = nextMessage(client);
    await client.publishAsync(
      gatewayTopics.batches(w.gateway.id),
      JSON.stringify({ batchId: 'm-1', readings }),
      { qos: 1 },
    );
    // The PUBACK resolved the publish: the rows must already be committed.
    expect(await readingCount(w.uid)).toBe(50);
    expect(await result).toEqual({ batchId: 'm-1', accepted: 50, duplicates: 0, rejected: [] });

    // A redelivery of the same batch (QoS 1 dup) is stored once.
    const again = nextMessage(client);
    await client.publishAsync(
      gatewayTopics.batches(w.gateway.id),
      JSON.stringify({ batchId: 'm-1', readings }),
      { qos: 1, dup: true },
    );
    expect(await again).toMatchObject({ accepted: 0, duplicates: 50 });
    expect(await readingCount(w.uid)).toBe(50);

    // A malformed message is acknowledged and answered with the reason.
    const bad = nextMessage(client);
    await client.publishAsync(gatewayTopics.batches(w.gateway.id), '{"readings": 5}', { qos: 1 });
    expect(await bad).toMatchObject({
      error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/readings/) },
    });
    const notJson = nextMessage(client);
    await client.publishAsync(gatewayTopics.batches(w.gateway.id), 'nope', { qos: 1 });
    expect(await notJson).toMatchObject({ error: { code: 'INVALID_JSON' } });
    await client.endAsync();
  });

  it('an SOS of a serial nobody registered is accepted and opens one alert; its QoS 1 redelivery none (issue 34)', async () => {
    const w = await newWearer();
    const client = await connectAs(w);
    await client.subscribeAsync(gatewayTopics.results(w.gateway.id), { qos: 1 });
    // As stored: serials are kept upper-case (migration 033), the gateway's id is lower-case hex.
    const serial = normalizeSerial(`BR-MQTT-${w.gateway.id.slice(-8)}`);
    const batch = JSON.stringify({
      batchId: 'm-sos',
      events: [
        { serialNumber: serial, type: 'SOS', at: new Date(Date.now() - 1000).toISOString() },
      ],
    });
    const alertsOf = () =>
      t.db.query<{ type: string }>(
        'SELECT type FROM alerts WHERE device_serial = $1 AND wearer_id IS NULL',
        [serial],
      );
    const result = nextMessage(client);
    await client.publishAsync(gatewayTopics.batches(w.gateway.id), batch, { qos: 1 });
    expect(await result).toEqual({ batchId: 'm-sos', accepted: 1, duplicates: 0, rejected: [] });
    expect(await alertsOf()).toEqual([{ type: 'SOS_CALL' }]);
    const again = nextMessage(client);
    await client.publishAsync(gatewayTopics.batches(w.gateway.id), batch, { qos: 1, dup: true });
    expect(await again).toMatchObject({ accepted: 0, duplicates: 1, rejected: [] });
    expect(await alertsOf()).toHaveLength(1);
    await client.endAsync();
  });

  it('refuses a wrong credential', async () => {
    const w = await newWearer();
    await expect(connectAs(w, 'wrong')).rejects.toThrow();
  });

  it("refuses another gateway's topics", async () => {
    const a = await newWearer();
    const b = await newWearer();
    const client = await connectAs(b);
    // Refused in the SUBACK (failure code 128).
    await expect(
      client.subscribeAsync(gatewayTopics.results(a.gateway.id), { qos: 1 }),
    ).rejects.toThrow(/Subscribe error/);
    const batch = {
      readings: [
        { serialNumber: a.bracelet.serialNumber, at: new Date().toISOString(), heartRate: 70 },
      ],
    };
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(gatewayTopics.batches(a.gateway.id), JSON.stringify(batch), { qos: 1 });
    await closed; // the broker drops a client that publishes where it may not
    expect(await readingCount(a.uid)).toBe(0);
    client.end(true);

    // Its own topic with org A's bracelet: refused item, nothing stored.
    const own = await connectAs(b);
    await own.subscribeAsync(gatewayTopics.results(b.gateway.id), { qos: 1 });
    const result = nextMessage(own);
    await own.publishAsync(gatewayTopics.batches(b.gateway.id), JSON.stringify(batch), { qos: 1 });
    expect(await result).toMatchObject({
      accepted: 0,
      rejected: [{ reason: `unknown bracelet ${a.bracelet.serialNumber}` }],
    });
    expect(await readingCount(a.uid)).toBe(0);
    await own.endAsync();
  });

  it("a gateway cannot take another gateway's client id: refused, and the real one stays connected", async () => {
    const victim = await newWearer();
    const attacker = await newWearer(); // another organisation
    // A persistent session, so a takeover would also hand over queued results.
    const real = await connectAs(victim, victim.gateway.credential, victim.gateway.id, {
      clean: false,
    });
    await real.subscribeAsync(gatewayTopics.results(victim.gateway.id), { qos: 1 });
    let realClosed = false;
    real.on('close', () => (realClosed = true));
    for (const stolen of [victim.gateway.id, `${victim.gateway.id}/x`, 'no-gateway-prefix']) {
      await expect(
        connectAs(attacker, attacker.gateway.credential, stolen, { clean: false }),
        stolen,
      ).rejects.toThrow();
    }
    // Still connected and still ingesting.
    expect(realClosed).toBe(false);
    const result = nextMessage(real);
    const batch = {
      readings: [
        { serialNumber: victim.bracelet.serialNumber, at: new Date().toISOString(), heartRate: 71 },
      ],
    };
    await real.publishAsync(gatewayTopics.batches(victim.gateway.id), JSON.stringify(batch), {
      qos: 1,
    });
    expect(await result).toMatchObject({ accepted: 1 });
    // Its own id, or its id with a /suffix, is fine.
    const own = await connectAs(
      attacker,
      attacker.gateway.credential,
      `${attacker.gateway.id}/second`,
    );
    await own.endAsync();
    await real.endAsync();
  });

  it('logs one clear line and stays off when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const before = lines.length;
    expect(await startEmbeddedBroker(t.ctx, port, log)).toBeNull();
    expect(lines.slice(before)).toEqual([
      `MQTT port ${port} is in use; the embedded broker is off, HTTP ingestion still works`,
    ]);
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
  });

  it('with MQTT_URL on a broker that is down, the server still starts and keeps retrying', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise<void>((resolve) => blocker.close(() => resolve())); // nothing listens there now
    const before = lines.length;
    const ctx = { ...t.ctx, config: { ...t.ctx.config, mqttUrl: `mqtt://127.0.0.1:${port}` } };
    const external = await startMqtt(ctx, log);
    expect(external?.mode).toBe('external');
    expect(lines.slice(before).join('\n')).toMatch(/not reachable yet/);
    await external?.close();
  });
});
