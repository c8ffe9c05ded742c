// Issue 18 through real MQTT clients: Debian's mosquitto_pub publishes as the devices would: an April
// Brother AB BLE Gateway V4 MessagePack message (user guide "Data Format"; a device frame of its examples and
// an Ingics iBS01 button advertisement from ingics/ingics-message-parser) and Ingics iGS03 report lines.
// Against the embedded broker (MQTT 3.1.1; MQTT 5 refused with its reason) and a real Mosquitto with the
// documented ACL (both protocol versions).
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from '@msgpack/msgpack';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayKind } from '@wearable/domain';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  createGateway,
  createOrganization,
  createWearer,
  type GatewayRecord,
} from '../testing/factories.js';
import { type MqttService, startMqtt } from './mqtt.js';

const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
const MOSQUITTO_PUB = ['/usr/bin/mosquitto_pub'].find((p) => existsSync(p));
const EXTERNAL_URL = process.env.MQTT_TEST_URL;

const IBEACON = '0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5';
const BUTTON = '02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF'; // iBS01: battery 3.10 V, button pressed

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

/** mosquitto_pub, as a device would publish: its exit code and what it printed. */
function publish(
  url: string,
  gateway: GatewayRecord,
  topic: string,
  payload: Buffer | string,
  version: 'mqttv311' | 'mqttv5',
): Promise<{ code: number; output: string }> {
  const { hostname, port } = new URL(url);
  const dir = mkdtempSync(join(tmpdir(), 'mqtt-pub-'));
  const file = join(dir, 'payload');
  writeFileSync(file, payload);
  return new Promise((resolve) => {
    execFile(
      MOSQUITTO_PUB!,
      [
        '-h',
        hostname,
        '-p',
        port,
        '-V',
        version,
        '-q',
        '1',
        '-u',
        gateway.id,
        '-P',
        gateway.credential,
        '-i',
        `${gateway.id}/pub`,
        '-t',
        topic,
        '-f',
        file,
      ],
      { timeout: 15_000 },
      (error, stdout, stderr) => {
        rmSync(dir, { recursive: true, force: true });
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, output: `${stdout}${stderr}` });
      },
    );
  });
}

const abMessage = (...devices: string[]) =>
  Buffer.from(
    encode({
      v: '1.5.5',
      mid: 7,
      time: 1,
      ip: '10.0.0.2',
      mac: 'C8FD19000001',
      devices: devices.map((d) => Buffer.from(d, 'hex')),
    }),
  );

async function story(
  t: TestApp,
  url: string,
  org: { id: string },
  [ab, ingics]: [GatewayRecord, GatewayRecord],
  version: 'mqttv311' | 'mqttv5',
) {
  // Serial numbers are unique across organisations: each story its own tags.
  const p = randomBytes(4).toString('hex').toUpperCase();
  const present = await createWearer(t.db, {
    organizationId: org.id,
    serialNumber: `${p}0001`,
  });
  const pressing = await createWearer(t.db, {
    organizationId: org.id,
    serialNumber: `${p}0002`,
  });
  const ingicsTag = await createWearer(t.db, {
    organizationId: org.id,
    serialNumber: `${p}0003`,
  });
  // AB V4: an iBeacon (presence) and an iBS01 button press (SOS and battery), plus a tag nobody registered.
  const r1 = await publish(
    url,
    ab,
    `gateways/${ab.id}/aprilbrother`,
    abMessage(`00${p}0001C4${IBEACON}`, `00${p}0002B0${BUTTON}`, `00${p}00FFB0${IBEACON}`),
    version,
  );
  expect(r1, r1.output).toMatchObject({ code: 0 });
  // Ingics: report lines, CRLF separated, with a heartbeat.
  const epoch = Math.floor(Date.now() / 1000) - 1;
  const lines = `$GPRP,${p}0003,CB412F0C8EDC,-49,${IBEACON},${epoch}\r\n$HBRP,CB412F0C8EDC,CB412F0C8EDC,0,,${epoch}\r\n`;
  const r2 = await publish(url, ingics, `gateways/${ingics.id}/ingics`, lines, version);
  expect(r2, r2.output).toMatchObject({ code: 0 });
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
  };
  const readings = (wearerId: string) =>
    t.db.query<{ battery: number | null }>('SELECT battery FROM readings WHERE wearer_id = $1', [
      wearerId,
    ]);
  const sos = () =>
    t.db.query('SELECT 1 FROM alerts WHERE wearer_id = $1 AND type = $2', [
      pressing.uid,
      'SOS_CALL',
    ]);
  await until(async () => (await readings(ingicsTag.uid)).length > 0 && (await sos()).length > 0);
  expect(await readings(present.uid)).toHaveLength(1);
  expect(await readings(pressing.uid)).toEqual([{ battery: 100 }]);
  expect(await readings(ingicsTag.uid)).toHaveLength(1);
  expect(await sos()).toHaveLength(1);
  await t.ctx.vendorGateways.unknownDevices.flush(); // written every few seconds otherwise
  const unknown = await t.db.query<{ deviceId: string }>(
    'SELECT device_id AS "deviceId" FROM unknown_devices WHERE gateway_id = $1',
    [ab.id],
  );
  expect(unknown).toEqual([{ deviceId: `${p}00FF` }]);
}

const withKind = async (t: TestApp, kind: GatewayKind, organizationId: string) => {
  const g = await createGateway(t.db, { organizationId });
  await t.db.query('UPDATE gateways SET kind = $2 WHERE id = $1', [g.id, kind]);
  return g;
};

describe.skipIf(!MOSQUITTO_PUB)('embedded broker: vendor topics', () => {
  let t: TestApp;
  let broker: MqttService;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    const log = {
      info: () => undefined,
      warn: (m: string) => void lines.push(m),
      error: (m: string) => void lines.push(m),
    };
    const started = await startMqtt(t.ctx, log, { ephemeralPort: true });
    if (!started) throw new Error('embedded broker did not start');
    broker = started;
  });
  afterAll(async () => {
    await broker?.close();
    await t?.close();
  });

  it('April Brother MessagePack and Ingics lines from mosquitto_pub (MQTT 3.1.1): readings and an SOS arrive', async () => {
    const org = await createOrganization(t.db);
    const pair: [GatewayRecord, GatewayRecord] = [
      await withKind(t, 'aprilbrother', org.id),
      await withKind(t, 'ingics', org.id),
    ];
    await story(t, `mqtt://127.0.0.1:${broker.port}`, org, pair, 'mqttv311');
  });

  it('refuses MQTT 5 with CONNACK "unacceptable protocol version" and logs why', async () => {
    const org = await createOrganization(t.db);
    const g = await withKind(t, 'ingics', org.id);
    const r = await publish(
      `mqtt://127.0.0.1:${broker.port}`,
      g,
      `gateways/${g.id}/ingics`,
      '$HBRP,CB412F0C8EDC,CB412F0C8EDC,0,\r\n',
      'mqttv5',
    );
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/protocol version/i);
    expect(lines.join('\n')).toMatch(/MQTT 5.*external broker \(MQTT_URL\)/);
  });

  it('a gateway of another kind or another gateway’s vendor topic is refused', async () => {
    const org = await createOrganization(t.db);
    const native = await createGateway(t.db, { organizationId: org.id });
    const ab = await withKind(t, 'aprilbrother', org.id);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      username: native.id,
      password: native.credential,
      clientId: native.id,
      reconnectPeriod: 0,
    });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(`gateways/${native.id}/aprilbrother`, abMessage(`00AC2300000001C4${IBEACON}`), {
      qos: 1,
    });
    await closed; // the broker drops a client that publishes where it may not
    await client.endAsync(true);
    const abClient = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      username: ab.id,
      password: ab.credential,
      clientId: ab.id,
      reconnectPeriod: 0,
    });
    const closed2 = new Promise<void>((resolve) => abClient.once('close', () => resolve()));
    abClient.publish(
      `gateways/${native.id}/aprilbrother`,
      abMessage(`00AC2300000001C4${IBEACON}`),
      {
        qos: 1,
      },
    );
    await closed2;
    await abClient.endAsync(true);
  });
});

describe.skipIf(!MOSQUITTO_PUB || (!MOSQUITTO && !EXTERNAL_URL))(
  'external broker (Mosquitto): vendor topics',
  () => {
    let t: TestApp;
    let service: MqttService;
    let proc: ChildProcess | undefined;
    let dir: string | undefined;
    let brokerUrl = '';
    let passwords = '';
    beforeAll(async () => {
      t = await createTestApp();
      let consoleUrl: string;
      if (MOSQUITTO) {
        dir = mkdtempSync(join(tmpdir(), 'mosq-vendor-'));
        const port = await freePort();
        passwords = join(dir, 'passwd');
        writeFileSync(passwords, '');
        execFileSync('mosquitto_passwd', ['-b', passwords, 'console', 'console-secret']);
        writeFileSync(
          join(dir, 'acl'),
          [
            'user console',
            'topic read $share/wearable-console/gateways/+/batches',
            'topic read $share/wearable-console/gateways/+/aprilbrother',
            'topic read $share/wearable-console/gateways/+/ingics',
            'topic read gateways/+/batches',
            'topic read gateways/+/aprilbrother',
            'topic read gateways/+/ingics',
            'topic write gateways/+/results',
            '',
            'pattern write gateways/%u/batches',
            'pattern write gateways/%u/aprilbrother',
            'pattern write gateways/%u/ingics',
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
            process.getuid?.() === 0 ? 'user root' : '',
            '',
          ].join('\n'),
        );
        brokerUrl = `mqtt://127.0.0.1:${port}`;
        consoleUrl = `mqtt://console:console-secret@127.0.0.1:${port}`;
      } else {
        brokerUrl = EXTERNAL_URL!;
        consoleUrl = EXTERNAL_URL!;
      }
      t.ctx.config = { ...t.ctx.config, mqttUrl: consoleUrl, port: await freePort() };
    });
    afterAll(async () => {
      await service?.close();
      await t?.close();
      proc?.kill();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const logged: string[] = [];
    const pairs = new Map<string, [GatewayRecord, GatewayRecord]>();
    const orgs = new Map<string, { id: string }>();
    beforeAll(async () => {
      for (const version of ['mqttv311', 'mqttv5']) {
        const org = await createOrganization(t.db);
        orgs.set(version, org);
        const pair: [GatewayRecord, GatewayRecord] = [
          await withKind(t, 'aprilbrother', org.id),
          await withKind(t, 'ingics', org.id),
        ];
        pairs.set(version, pair);
        if (MOSQUITTO)
          for (const g of pair)
            execFileSync('mosquitto_passwd', ['-b', passwords, g.id, g.credential]);
      }
      if (MOSQUITTO) {
        proc = spawn(MOSQUITTO, ['-c', join(dir!, 'mosquitto.conf')], { stdio: 'ignore' });
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
      }
      const log = (m: string) => void logged.push(m);
      const started = await startMqtt(t.ctx, { info: log, warn: log, error: log });
      if (!started) throw new Error('external subscriber did not start');
      service = started;
    });

    for (const version of ['mqttv311', 'mqttv5'] as const) {
      it(`April Brother MessagePack and Ingics lines from mosquitto_pub (${version}): readings and an SOS arrive`, async () => {
        await story(t, brokerUrl, orgs.get(version)!, pairs.get(version)!, version);
      });
    }
  },
);
