import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayTopics } from '@wearable/domain';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createOrganization, createWearer } from '../testing/factories.js';
import { type MqttService, startMqtt } from './mqtt.js';

/**
 * The server as a client of a real Mosquitto (MQTT_URL): our own mosquitto on a free port with
 * a password file and the documented ACL, or the machine's broker at MQTT_TEST_URL.
 */
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
const EXTERNAL_URL = process.env.MQTT_TEST_URL;
const skipReason = !MOSQUITTO && !EXTERNAL_URL ? 'no mosquitto binary and no MQTT_TEST_URL' : null;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

let t: TestApp;
let service: MqttService;
let proc: ChildProcess | undefined;
let dir: string | undefined;
let brokerUrl = '';
const gatewayAuth = new Map<string, string>();

describe.skipIf(skipReason !== null)(
  `external broker (Mosquitto)${skipReason ? ` — skipped: ${skipReason}` : ''}`,
  () => {
    let w: Awaited<ReturnType<typeof createWearer>>;
    let other: Awaited<ReturnType<typeof createWearer>>;
    beforeAll(async () => {
      let consoleUrl: string;
      if (MOSQUITTO) {
        dir = mkdtempSync(join(tmpdir(), 'mosq-'));
        const port = await freePort();
        const passwords = join(dir, 'passwd');
        writeFileSync(passwords, '');
        gatewayAuth.set('console', 'console-secret');
        t = await createTestApp();
        const org = await createOrganization(t.db);
        w = await createWearer(t.db, { organizationId: org.id });
        other = await createWearer(t.db, { organizationId: org.id });
        for (const g of [w.gateway, other.gateway]) gatewayAuth.set(g.id, g.credential);
        for (const [user, password] of gatewayAuth)
          execFileSync('mosquitto_passwd', ['-b', passwords, user, password]);
        writeFileSync(
          join(dir, 'acl'),
          [
            'user console',
            'topic read $share/wearable-console/gateways/+/batches',
            'topic read gateways/+/batches',
            'topic write gateways/+/results',
            '',
            'pattern write gateways/%u/batches',
            'pattern read gateways/%u/results',
            '',
          ].join('\n'),
        );
        writeFileSync(
          join(dir, 'mosquitto.conf'),
          [
            `listener ${port} 127.0.0.1`,
            'allow_anonymous false',
            `password_file ${passwords}`,
            `acl_file ${join(dir, 'acl')}`,
            'persistence false',
            // As root, mosquitto would switch to its own user, which cannot read our temp folder.
            process.getuid?.() === 0 ? 'user root' : '',
            '',
          ].join('\n'),
        );
        proc = spawn(MOSQUITTO, ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
        brokerUrl = `mqtt://127.0.0.1:${port}`;
        consoleUrl = `mqtt://console:console-secret@127.0.0.1:${port}`;
        for (let i = 0; i < 50; i++) {
          const ok = await mqtt
            .connectAsync(brokerUrl, {
              username: 'console',
              password: 'console-secret',
              reconnectPeriod: 0,
            })
            .then(
              (c) => c.endAsync().then(() => true),
              () => false,
            );
          if (ok) break;
          await new Promise((r) => setTimeout(r, 100));
        }
      } else {
        brokerUrl = EXTERNAL_URL!;
        consoleUrl = EXTERNAL_URL!;
        t = await createTestApp();
        const org = await createOrganization(t.db);
        w = await createWearer(t.db, { organizationId: org.id });
        other = await createWearer(t.db, { organizationId: org.id });
      }
      t.ctx.config = { ...t.ctx.config, mqttUrl: consoleUrl, port: await freePort() };
      const started = await startMqtt(t.ctx, {
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      });
      if (!started) throw new Error('external subscriber did not start');
      service = started;
    });

    afterAll(async () => {
      await service?.close();
      await t?.close();
      proc?.kill();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const gatewayClient = (g: { id: string; credential: string }) =>
      mqtt.connectAsync(brokerUrl, {
        username: g.id,
        password: g.credential,
        reconnectPeriod: 0,
        clientId: `t-${g.id}`.slice(0, 60),
      });

    it('ingests a batch published to the broker and answers on the results topic', async () => {
      expect(service.mode).toBe('external');
      const client = await gatewayClient(w.gateway);
      await client.subscribeAsync(gatewayTopics.results(w.gateway.id), { qos: 1 });
      const result = new Promise<unknown>((resolve) =>
        client.once('message', (_t, p) => resolve(JSON.parse(p.toString()))),
      );
      const batch = {
        batchId: 'x-1',
        readings: [
          {
            serialNumber: w.bracelet.serialNumber,
            at: new Date(Date.now() - 1000).toISOString(),
            heartRate: 77,
          },
        ],
      };
      await client.publishAsync(gatewayTopics.batches(w.gateway.id), JSON.stringify(batch), {
        qos: 1,
      });
      expect(await result).toEqual({ batchId: 'x-1', accepted: 1, duplicates: 0, rejected: [] });
      const again = new Promise<unknown>((resolve) =>
        client.once('message', (_t, p) => resolve(JSON.parse(p.toString()))),
      );
      await client.publishAsync(gatewayTopics.batches(w.gateway.id), JSON.stringify(batch), {
        qos: 1,
      });
      expect(await again).toMatchObject({ accepted: 0, duplicates: 1 });
      const rows = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1',
        [w.uid],
      );
      expect(rows[0]?.n).toBe(1);
      await client.endAsync();
    });

    it.skipIf(!MOSQUITTO)(
      "the broker's ACL keeps a gateway off another gateway's topic",
      async () => {
        const client = await gatewayClient(other.gateway);
        const batch = {
          readings: [
            {
              serialNumber: w.bracelet.serialNumber,
              at: new Date(Date.now() - 500).toISOString(),
              heartRate: 99,
            },
          ],
        };
        await client
          .publishAsync(gatewayTopics.batches(w.gateway.id), JSON.stringify(batch), { qos: 1 })
          .catch(() => undefined);
        await new Promise((r) => setTimeout(r, 300)); // give a (wrongly) forwarded message time to land
        const rows = await t.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1 AND heart_rate = 99',
          [w.uid],
        );
        expect(rows[0]?.n).toBe(0);
        await client.endAsync();
      },
    );
  },
);
