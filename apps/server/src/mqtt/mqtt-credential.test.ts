import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayTopics } from '@wearable/domain';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from '../testing/factories.js';
import { type MqttLog, type MqttService, startMqtt } from './mqtt.js';

const log: MqttLog = { info: () => {}, warn: () => {}, error: () => {} };

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

async function gatewayWithOwner(): Promise<{ w: WearerRecord; owner: UserRecord }> {
  const org = await createOrganization(t.db);
  const owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  return { w: await createWearer(t.db, { organizationId: org.id }), owner };
}
const connect = (gatewayId: string, password: string) =>
  mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
    username: gatewayId,
    password,
    reconnectPeriod: 0,
    clientId: `${gatewayId}/live`,
  });
const closed = (client: mqtt.MqttClient) =>
  new Promise<void>((resolve) => client.once('close', () => resolve()));
/** A batch through the connection, answered on the results topic. */
async function sendReading(client: mqtt.MqttClient, w: WearerRecord) {
  await client.subscribeAsync(gatewayTopics.results(w.gateway.id), { qos: 1 });
  const answer = new Promise<unknown>((resolve) =>
    client.once('message', (_t, p) => resolve(JSON.parse(p.toString()))),
  );
  const readings = [
    { serialNumber: w.bracelet.serialNumber, at: new Date().toISOString(), heartRate: 72 },
  ];
  await client.publishAsync(gatewayTopics.batches(w.gateway.id), JSON.stringify({ readings }), {
    qos: 1,
  });
  return answer;
}

describe('a gateway credential changed while the gateway is connected over MQTT', () => {
  it('rotation drops the live connection; the old credential is refused, the new one accepted', async () => {
    const { w, owner } = await gatewayWithOwner();
    const live = await connect(w.gateway.id, w.gateway.credential);
    expect(await sendReading(live, w)).toMatchObject({ accepted: 1 });
    const dropped = closed(live);

    const rotated = await t.app.inject({
      method: 'POST',
      url: `/v2/gateway/${w.gateway.id}/credential`,
      headers: owner.headers,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    // The rotation's answer came back: by now the broker has closed the connection (no waiting on a timer).
    await dropped;
    expect(live.connected).toBe(false);

    await expect(connect(w.gateway.id, w.gateway.credential)).rejects.toThrow();
    const renewed = await connect(w.gateway.id, rotated.json<{ credential: string }>().credential);
    expect(await sendReading(renewed, w)).toMatchObject({ accepted: 1 });
    await renewed.endAsync();
  });

  it('retiring the gateway drops its connection and refuses it from then on', async () => {
    const { w, owner } = await gatewayWithOwner();
    const live = await connect(w.gateway.id, w.gateway.credential);
    const dropped = closed(live);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v2/gateway/${w.gateway.id}`,
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    await dropped;
    await expect(connect(w.gateway.id, w.gateway.credential)).rejects.toThrow();
  });
});
