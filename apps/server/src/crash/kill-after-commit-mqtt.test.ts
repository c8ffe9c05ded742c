import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { DEFAULT_SCHEDULE, gatewayTopics } from '@wearable/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, openPglite, openPostgres } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { pgliteFolderFromTemplate } from '../testing/test-db.js';
import {
  createGroup,
  createOrganization,
  createWearer,
  type WearerRecord,
} from '../testing/factories.js';
import { eventually } from '../testing/gateway-load.js';
import { freePort, waitForPort } from '../testing/private-nats.js';
import { freshPostgresDatabase, type SpawnedServer, spawnServer } from '../testing/spawn-server.js';

/**
 * kill-after-commit.test.ts's moment, with the SOS batch arriving over MQTT (issue 34): the server
 * is killed (TEST_FAULT=…:kill, kill -9 semantics) right after the batch's commit, before the
 * PUBACK (the embedded broker, on PGlite) or before its acknowledgement to the broker (a private
 * persistent Mosquitto on either database, which keeps the message in the server's session). After
 * the restart the alert is notified exactly once (the faked SMS files and the notifications table),
 * its escalation row exists, the outbox is empty, and the gateway's resends, the QoS 1 redelivery
 * and a republish of the same batch, are answered as duplicates and open nothing. No timing
 * asserted.
 */
const postgres = !!process.env.TEST_DATABASE_URL;
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
const PHONE = '+819012340001';

async function seed(db: Db): Promise<WearerRecord> {
  const org = await createOrganization(db);
  const group = await createGroup(db, { organizationId: org.id });
  const wearer = await createWearer(db, { organizationId: org.id, groupId: group.id });
  await db.query(
    `INSERT INTO group_alert_notice_settings
       (id, organization_id, group_id, phone_number, channel, alert_types, schedule, step, position)
     VALUES ($1, $2, $3, $4, 'SMS', '["SOS_CALL"]', $5::jsonb, 1, 0)`,
    [randomUUID(), org.id, group.id, PHONE, JSON.stringify(DEFAULT_SCHEDULE)],
  );
  return wearer;
}

const reading = (w: WearerRecord) => ({
  batchId: `reading-${randomUUID()}`,
  readings: [
    {
      serialNumber: w.bracelet.serialNumber,
      at: new Date(Date.now() - 5_000).toISOString(),
      heartRate: 72,
    },
  ],
});
const sos = (w: WearerRecord) => ({
  batchId: `sos-${randomUUID()}`,
  events: [
    {
      serialNumber: w.bracelet.serialNumber,
      at: new Date(Date.now() - 1_000).toISOString(),
      type: 'SOS',
    },
  ],
});

const smsFiles = (dataDir: string): string[] => {
  try {
    return readdirSync(join(dataDir, 'sms')).filter((f) => f.includes(PHONE.slice(1)));
  } catch {
    return [];
  }
};

async function stateOf(db: Db, w: WearerRecord) {
  const alerts = await db.query<{ id: string }>(
    `SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL'`,
    [w.uid],
  );
  const ids = alerts.map((a) => a.id);
  const count = async (sql: string) => (await db.query<{ n: number }>(sql, [ids]))[0]?.n ?? 0;
  return {
    alerts: ids.length,
    events: (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM device_events WHERE wearer_id = $1 AND type = 'SOS'`,
        [w.uid],
      )
    )[0]?.n,
    notices: await count(
      'SELECT count(*)::int AS n FROM notifications WHERE alert_id = ANY($1::text[])',
    ),
    escalations: await count(
      'SELECT count(*)::int AS n FROM notification_escalations WHERE alert_id = ANY($1::text[])',
    ),
    outbox: await count(
      'SELECT count(*)::int AS n FROM alert_outbox WHERE alert_id = ANY($1::text[])',
    ),
  };
}

interface Reply {
  batchId?: string;
  accepted?: number;
  duplicates?: number;
}

/**
 * The gateway: a QoS 1 publisher with its own client id and a clean session (as gateways are), which
 * mqtt.js re-sends every unacknowledged publish from on each reconnection; it keeps every result that
 * arrives on gateways/<id>/results.
 */
async function gatewayClient(url: string, w: WearerRecord) {
  const client = mqtt.connect(url, {
    username: w.gateway.id,
    password: w.gateway.credential,
    clientId: w.gateway.id,
    reconnectPeriod: 300,
    connectTimeout: 5_000,
  });
  client.on('error', () => undefined);
  await new Promise<void>((r) => client.once('connect', () => r()));
  const replies: Reply[] = [];
  client.on('message', (_topic, payload) => replies.push(JSON.parse(payload.toString()) as Reply));
  await client.subscribeAsync(gatewayTopics.results(w.gateway.id), { qos: 1 });
  return {
    client,
    replies,
    of: (batchId: string) => replies.filter((r) => r.batchId === batchId),
    publish: (body: object) =>
      client.publishAsync(gatewayTopics.batches(w.gateway.id), JSON.stringify(body), { qos: 1 }),
    close: () => client.endAsync(true).catch(() => undefined),
  };
}

describe('a server dies between an MQTT SOS batch commit and its answer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-kill-commit-mqtt-'));
  const servers: SpawnedServer[] = [];
  const brokers: ChildProcess[] = [];
  const dbs: { drop(): Promise<void> }[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of closers) await c();
    for (const s of servers) await s.kill9();
    for (const b of brokers) b.kill('SIGKILL');
    for (const d of dbs) await d.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A private Mosquitto with persistence (the server's session outlives the server). */
  async function startMosquitto(name: string): Promise<string> {
    const port = await freePort();
    const home = join(dir, name);
    mkdirSync(home, { recursive: true });
    const conf = join(home, 'mosquitto.conf');
    writeFileSync(
      conf,
      [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous true',
        'persistence true',
        `persistence_location ${home}/`,
        process.getuid?.() === 0 ? 'user root' : '',
        '',
      ].join('\n'),
    );
    brokers.push(spawn(MOSQUITTO!, ['-c', conf], { stdio: 'ignore' }));
    await waitForPort(port);
    return `mqtt://127.0.0.1:${port}`;
  }

  it.runIf(!postgres)(
    'PGlite, embedded broker: kill -9 before the PUBACK; the restarted server notifies once, the QoS 1 redelivery and a republish open nothing',
    async () => {
      const dataDir = join(dir, 'lite');
      pgliteFolderFromTemplate(dataDir);
      const seedDb = await openPglite(dataDir);
      await migrate(seedDb);
      const w = await seed(seedDb);
      await seedDb.close();

      const mqttPort = await freePort();
      const url = `mqtt://127.0.0.1:${mqttPort}`;
      const log = join(dir, 'lite.log');
      const env = { DATA_DIR: dataDir, SEED_DEMO: 'false', MQTT_PORT: String(mqttPort) };
      const doomed = await spawnServer({ ...env, TEST_FAULT: 'batch-committed:kill' }, log);
      servers.push(doomed);
      await doomed.ready();
      const gateway = await gatewayClient(url, w);
      closers.push(gateway.close);

      const exited = new Promise((r) => doomed.child.once('exit', r));
      const batch = sos(w);
      // The PUBACK comes only once the restarted server has taken the redelivered publish.
      const acked = gateway.publish(batch);
      await exited;

      // Committed, not told: the alert and its outbox rows, no notice yet, no PUBACK.
      const between = await openPglite(dataDir);
      try {
        expect(await stateOf(between, w)).toMatchObject({
          alerts: 1,
          events: 1,
          notices: 0,
          outbox: 2,
        });
      } finally {
        await between.close();
      }
      expect(gateway.of(batch.batchId)).toEqual([]);

      const server = await spawnServer(env, log, doomed.port);
      servers.push(server);
      await server.ready();
      // mqtt.js re-sends the unacknowledged publish on reconnecting; the embedded broker's PUBACK
      // means it went through ingestion (a duplicate: nothing new below). Its result is published
      // before mqtt.js subscribes again (it resubscribes once its stored publishes are acknowledged),
      // so the gateway learns of this one from the PUBACK only, as docs/gateway-protocol.md says.
      await acked;
      await gateway.client.subscribeAsync(gatewayTopics.results(w.gateway.id), { qos: 1 });
      await eventually(async () => smsFiles(dataDir).length === 1, 20_000, 'one SMS');
      // The gateway publishes the same batch again (it never saw a result): a duplicate too.
      await gateway.publish(batch);
      await eventually(async () => gateway.of(batch.batchId).length === 1, 20_000, 'its result');
      expect(gateway.of(batch.batchId)[0]).toMatchObject({ accepted: 0, duplicates: 1 });
      await new Promise((r) => setTimeout(r, 1_500));
      await gateway.close();
      await server.stop();

      expect(smsFiles(dataDir)).toHaveLength(1);
      const after = await openPglite(dataDir);
      try {
        expect(await stateOf(after, w)).toEqual({
          alerts: 1,
          events: 1,
          notices: 1,
          escalations: 1,
          outbox: 0,
        });
      } finally {
        await after.close();
      }
    },
    240_000,
  );

  it.runIf(!postgres && !!MOSQUITTO)(
    'PGlite, external Mosquitto: kill -9 before the server acknowledged to the broker; the restarted server gets the redelivery, notifies once, the republish opens nothing',
    async () => {
      const dataDir = join(dir, 'lite-mosquitto');
      pgliteFolderFromTemplate(dataDir);
      const seedDb = await openPglite(dataDir);
      await migrate(seedDb);
      const w = await seed(seedDb);
      await seedDb.close();
      const brokerUrl = await startMosquitto('lite-broker');
      const log = join(dir, 'lite-mosquitto.log');
      const env = { DATA_DIR: dataDir, SEED_DEMO: 'false', MQTT_URL: brokerUrl };
      const doomed = await spawnServer({ ...env, TEST_FAULT: 'batch-committed:kill' }, log);
      servers.push(doomed);
      await doomed.ready();
      const gateway = await gatewayClient(brokerUrl, w);
      closers.push(gateway.close);

      const exited = new Promise((r) => doomed.child.once('exit', r));
      const batch = sos(w);
      // Mosquitto's PUBACK says only that the broker has it.
      await gateway.publish(batch);
      await exited;
      const between = await openPglite(dataDir);
      try {
        expect(await stateOf(between, w)).toMatchObject({
          alerts: 1,
          events: 1,
          notices: 0,
          outbox: 2,
        });
      } finally {
        await between.close();
      }
      expect(gateway.of(batch.batchId)).toEqual([]);

      const server = await spawnServer(env, log, doomed.port);
      servers.push(server);
      await server.ready();
      // The broker redelivers it to the restarted server's session: a duplicate.
      await eventually(async () => gateway.of(batch.batchId).length === 1, 30_000, 'its result');
      expect(gateway.of(batch.batchId)[0]).toMatchObject({ accepted: 0, duplicates: 1 });
      await eventually(async () => smsFiles(dataDir).length === 1, 20_000, 'one SMS');
      await gateway.publish(batch);
      await eventually(async () => gateway.of(batch.batchId).length === 2, 20_000, 'a 2nd result');
      expect(gateway.of(batch.batchId)[1]).toMatchObject({ accepted: 0, duplicates: 1 });
      await new Promise((r) => setTimeout(r, 1_500));
      await gateway.close();
      await server.stop();

      expect(smsFiles(dataDir)).toHaveLength(1);
      const after = await openPglite(dataDir);
      try {
        expect(await stateOf(after, w)).toEqual({
          alerts: 1,
          events: 1,
          notices: 1,
          escalations: 1,
          outbox: 0,
        });
      } finally {
        await after.close();
      }
    },
    240_000,
  );

  it.runIf(postgres && !!MOSQUITTO)(
    'PostgreSQL, external Mosquitto: kill -9 right after the SOS lane committed; the restarted server gets the redelivery, notifies once, the republish opens nothing',
    async () => {
      const fresh = await freshPostgresDatabase('killcommitmqtt');
      dbs.push(fresh);
      const brokerUrl = await startMosquitto('broker');
      const dataDir = join(dir, 'pg');
      mkdirSync(dataDir);
      const log = join(dir, 'pg.log');
      const env = { DATABASE_URL: fresh.url, WORKERS: '1', DATA_DIR: dataDir, MQTT_URL: brokerUrl };
      const doomed = await spawnServer({ ...env, TEST_FAULT: 'urgent-committed:kill' }, log);
      servers.push(doomed);
      await doomed.ready();
      const seedDb = await openPostgres(fresh.url, 2);
      closers.push(() => seedDb.close());
      const w = await seed(seedDb);
      const gateway = await gatewayClient(brokerUrl, w);
      closers.push(gateway.close);

      // Worn and read first: the server has the wearer's engine state, so its SOS takes the urgent lane.
      const worn = reading(w);
      await gateway.publish(worn);
      await eventually(async () => gateway.of(worn.batchId).length === 1, 30_000, 'the reading');
      const exited = new Promise((r) => doomed.child.once('exit', r));
      const batch = sos(w);
      // Mosquitto's PUBACK says only that the broker has it.
      await gateway.publish(batch);
      await exited;
      // Committed in the urgent lane, not told: no notice yet; the broker keeps the unacknowledged
      // message in the server's session.
      expect(await stateOf(seedDb, w)).toMatchObject({ alerts: 1, events: 1, notices: 0 });
      expect(gateway.of(batch.batchId)).toEqual([]);

      const server = await spawnServer(env, log, doomed.port);
      servers.push(server);
      await server.ready();
      // The broker redelivers it to the restarted server's session: a duplicate.
      await eventually(async () => gateway.of(batch.batchId).length === 1, 30_000, 'its result');
      expect(gateway.of(batch.batchId)[0]).toMatchObject({ accepted: 0, duplicates: 1 });
      await eventually(async () => smsFiles(dataDir).length === 1, 20_000, 'one SMS');
      // The gateway publishes it again: a duplicate too.
      await gateway.publish(batch);
      await eventually(async () => gateway.of(batch.batchId).length === 2, 20_000, 'a 2nd result');
      expect(gateway.of(batch.batchId)[1]).toMatchObject({ accepted: 0, duplicates: 1 });
      await new Promise((r) => setTimeout(r, 1_500));
      expect(smsFiles(dataDir)).toHaveLength(1);
      expect(await stateOf(seedDb, w)).toEqual({
        alerts: 1,
        events: 1,
        notices: 1,
        escalations: 1,
        outbox: 0,
      });
    },
    240_000,
  );
});
