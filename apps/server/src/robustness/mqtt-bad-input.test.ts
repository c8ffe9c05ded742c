import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayTopics } from '@wearable/domain';
import { type MqttLog, type MqttService, startMqtt } from '../mqtt/mqtt.js';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * The gateway protocol over the embedded MQTT broker gets the same bad input as HTTP: every bad
 * message is acknowledged and answered with its reason (never left unacknowledged, which would make
 * the gateway resend a poison message forever), valid items are stored, and the connection stays.
 */
const lines: string[] = [];
const log: MqttLog = {
  info: (m) => lines.push(m),
  warn: (m) => lines.push(m),
  error: (m) => lines.push(m),
};

let t: TestApp;
let broker: MqttService;
let w: WearerRecord;
beforeAll(async () => {
  t = await createTestApp();
  const started = await startMqtt(t.ctx, log, { ephemeralPort: true });
  if (!started) throw new Error('embedded broker did not start');
  broker = started;
  w = await createWearer(t, { organizationId: (await createOrganization(t)).id });
});
afterAll(async () => {
  await broker?.close();
  await t?.close();
});

const connect = (username: string, password: string) =>
  mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    clientId: `${username}/robust-${Math.random().toString(36).slice(2, 10)}`,
  });

describe('MQTT batches with bad input', () => {
  it('answers every bad message with its reason and keeps the valid items', async () => {
    const client = await connect(w.gateway.id, w.gateway.credential);
    await client.subscribeAsync(gatewayTopics.results(w.gateway.id), { qos: 1 });
    const replies: unknown[] = [];
    client.on('message', (_topic, payload) => replies.push(JSON.parse(payload.toString())));
    const serial = w.bracelet.serialNumber;
    const ago = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    const messages: (string | Buffer)[] = [
      '',
      'nope',
      Buffer.from([0xff, 0xfe, 0x00, 0x01]),
      'null',
      '[]',
      '"text"',
      '{"readings": 5}',
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      JSON.stringify({ batchId: 'b'.repeat(200) }),
      JSON.stringify({
        batchId: 'mixed',
        readings: [
          { serialNumber: serial, at: ago(3), heartRate: 71 },
          { serialNumber: `${serial}\u0000`, at: ago(2), heartRate: 70 },
          { serialNumber: serial, at: '0000-01-01T00:00:00Z', heartRate: 70 },
          { serialNumber: serial, at: '2026-01-01T00:00:00+23:59', heartRate: 70 },
          { serialNumber: serial, at: ago(1), heartRate: 1e300 },
        ],
      }),
    ];
    // QoS 1: each publish resolves on its PUBACK, which the broker sends after the batch was handled.
    for (const m of messages)
      await client.publishAsync(gatewayTopics.batches(w.gateway.id), m, { qos: 1 });
    await expect.poll(() => replies.length, { timeout: 10_000 }).toBe(messages.length);
    const errors = replies.slice(0, -1) as { error?: { code: string; message: string } }[];
    expect(
      errors.every((r) => r.error && r.error.message.length > 0),
      JSON.stringify(errors),
    ).toBe(true);
    expect(replies.at(-1)).toMatchObject({ batchId: 'mixed', accepted: 1 });
    expect((replies.at(-1) as { rejected: unknown[] }).rejected).toHaveLength(4);
    const [row] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM readings WHERE bracelet_id = $1',
      [w.bracelet.id],
    );
    expect(row?.n).toBe(1);
    expect(client.connected).toBe(true);
    await client.endAsync();
  });

  it('refuses odd credentials as a bad user name or password, not as a server failure', async () => {
    const { id, credential } = w.gateway;
    for (const [username, password] of [
      [`${id}\u0000`, credential],
      ['', credential],
      [id, ''],
      ['x'.repeat(10_000), credential],
      [id, `${credential}\u0000`],
    ] as const) {
      const error = await connect(username, password).then(
        (c) => {
          c.end(true);
          return null;
        },
        (err: Error & { code?: number }) => err,
      );
      expect(error, JSON.stringify(username.slice(0, 40))).not.toBeNull();
      // CONNACK 4 is "bad user name or password"; 3 would be "server unavailable" (a database error).
      expect(error?.code, `${JSON.stringify(username.slice(0, 40))}: ${error?.message}`).toBe(4);
    }
  });
});
