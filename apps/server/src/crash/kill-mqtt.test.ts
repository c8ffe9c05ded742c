import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, openPglite, openPostgres } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { pgliteFolderFromTemplate } from '../testing/test-db.js';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import {
  countReadings,
  eventually,
  makeBatches,
  sendAllOverMqtt,
  sosAlertsPerWearer,
} from '../testing/gateway-load.js';
import { freePort, waitForPort } from '../testing/private-nats.js';
import { freshPostgresDatabase, type SpawnedServer, spawnServer } from '../testing/spawn-server.js';

/**
 * kill -9 of the server while a gateway publishes batches over MQTT (QoS 1): with the embedded
 * broker (the PUBACK is the server's, after the commit), and with an external Mosquitto (the PUBACK is
 * the broker's; the server's persistent session keeps what it has not acknowledged), plus a restart of
 * that broker. Every batch ends stored exactly once and every SOS opened one alert. No timing asserted.
 */
const postgres = !!process.env.TEST_DATABASE_URL;
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
const PER_BATCH = 50;

async function seed(db: Db): Promise<WearerRecord[]> {
  const org = await createOrganization(db);
  const first = await createWearer(db, { organizationId: org.id });
  const wearers = [first];
  for (let i = 0; i < 3; i++)
    wearers.push(await createWearer(db, { organizationId: org.id, gateway: first.gateway }));
  return wearers;
}

describe('kill -9 of the server during MQTT ingestion', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-kill-mqtt-'));
  const servers: SpawnedServer[] = [];
  let broker: ChildProcess | undefined;
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    for (const s of servers) await s.kill9();
    broker?.kill('SIGKILL');
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(!postgres)(
    'embedded broker (PGlite): every acknowledged batch stored once after the restart',
    async () => {
      const dataDir = join(dir, 'db');
      pgliteFolderFromTemplate(dataDir);
      const seedDb = await openPglite(dataDir);
      await migrate(seedDb);
      const wearers = await seed(seedDb);
      await seedDb.close();
      const mqttPort = await freePort();
      const env = { DATA_DIR: dataDir, SEED_DEMO: 'false', MQTT_PORT: String(mqttPort) };
      let server = await spawnServer(env, join(dir, 'server.log'));
      servers.push(server);
      await server.ready();

      const batches = makeBatches('kill-mqtt', wearers, 60, PER_BATCH);
      let killAt: () => void = () => undefined;
      const killNow = new Promise<void>((r) => (killAt = r));
      const sending = sendAllOverMqtt(
        `mqtt://127.0.0.1:${mqttPort}`,
        wearers[0]!.gateway,
        batches,
        {
          deadline: Date.now() + 240_000,
          onAck: (n) => n === 15 && killAt(),
        },
      );
      await killNow;
      await server.kill9();
      server = await spawnServer(env, join(dir, 'server.log'), server.port);
      servers.push(server);
      await server.ready();
      const acked = await sending;
      expect(acked.size).toBe(batches.length);
      await server.stop();

      const check = await openPglite(dataDir);
      try {
        expect(await countReadings(check, wearers)).toEqual({
          rows: 60 * PER_BATCH,
          distinct: 60 * PER_BATCH,
        });
        expect(await sosAlertsPerWearer(check, wearers)).toEqual([1, 1, 1, 1]);
      } finally {
        await check.close();
      }
    },
    300_000,
  );

  it.runIf(postgres && !!MOSQUITTO)(
    'external Mosquitto (PostgreSQL): batches queued for the killed server, and published while the broker restarts, are all processed once',
    async () => {
      fresh = await freshPostgresDatabase('killmqtt');
      const brokerPort = await freePort();
      const conf = join(dir, 'mosquitto.conf');
      writeFileSync(
        conf,
        [
          `listener ${brokerPort} 127.0.0.1`,
          'allow_anonymous true',
          'persistence true',
          `persistence_location ${dir}/`,
          'max_queued_messages 10000',
          process.getuid?.() === 0 ? 'user root' : '',
          '',
        ].join('\n'),
      );
      const startBroker = async () => {
        broker = spawn(MOSQUITTO!, ['-c', conf], { stdio: 'ignore' });
        await waitForPort(brokerPort);
      };
      await startBroker();
      const brokerUrl = `mqtt://127.0.0.1:${brokerPort}`;
      const env = { DATABASE_URL: fresh.url, WORKERS: '1', DATA_DIR: dir, MQTT_URL: brokerUrl };
      let server = await spawnServer(env, join(dir, 'server.log'));
      servers.push(server);
      await server.ready();
      const seedDb = await openPostgres(fresh.url, 2);
      const wearers = await seed(seedDb);
      const stored = async () => (await countReadings(seedDb, wearers)).rows;

      try {
        const batches = makeBatches('kill-ext', wearers, 60, PER_BATCH, 45);
        const first = batches.slice(0, 30);
        const second = batches.slice(30);
        // 1. The server is killed while it works through the first half; the broker holds the rest.
        const sendingFirst = sendAllOverMqtt(brokerUrl, wearers[0]!.gateway, first, {
          deadline: Date.now() + 240_000,
        });
        await eventually(
          async () => (await stored()) >= 5 * PER_BATCH,
          60_000,
          'the server to store a few batches',
        );
        await server.kill9();
        expect((await sendingFirst).size).toBe(first.length);
        server = await spawnServer(env, join(dir, 'server.log'), server.port);
        servers.push(server);
        await server.ready();
        await eventually(
          async () => (await stored()) === 30 * PER_BATCH,
          90_000,
          'the first half after the restart',
        );

        // 2. The broker restarts while the gateway has batches to send: they wait in the gateway until
        // the broker is back; the gateway keeps each until its result comes (a batch reaching the broker
        // before the server subscribed again is dropped by Mosquitto, and re-sent by the gateway).
        const down = new Promise((r) => broker!.once('exit', r));
        broker!.kill('SIGTERM');
        await down;
        const restarted = startBroker();
        const sendingSecond = sendAllOverMqtt(brokerUrl, wearers[0]!.gateway, second, {
          deadline: Date.now() + 240_000,
          untilResult: true,
        });
        await restarted;
        expect((await sendingSecond).size).toBe(second.length);
        await eventually(
          async () => (await stored()) === 60 * PER_BATCH,
          90_000,
          'the second half after the broker restart',
        );
        expect(server.child.exitCode).toBeNull();
        expect(await countReadings(seedDb, wearers)).toEqual({
          rows: 60 * PER_BATCH,
          distinct: 60 * PER_BATCH,
        });
        expect(await sosAlertsPerWearer(seedDb, wearers)).toEqual([1, 1, 1, 1]);
      } finally {
        await seedDb.close();
      }
    },
    300_000,
  );
});
