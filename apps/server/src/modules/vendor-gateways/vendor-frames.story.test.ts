// Issue 34, item 4, through the real app on a real database: a vendor frame is accepted whole or
// refused whole, a body of which nothing is read is 400 for every kind, RSSI stays with readings and
// events, and the registration answer names each kind's own MQTT topic.
// Vectors:
// - Minew BINARY-LONG: the simulated frame of reelyActive barnowl-minew lib/testlistener.js
//   (github.com/reelyactive/barnowl-minew): one tag FEE150BADA55 with a 26-byte advertisement, RSSI 0xB8
//   (-72 dBm), total length 0x34.
// - Ingics iBS01: the advertisements of ingics/ingics-message-parser __test__/ibs01.test.js ("button
//   pressed" 02010612FF590080BC360101FF..., "hall sensor" 02010612FF590080BC2B0104FF...), with our tag MACs.
// - ChirpStack v4 `up` event: chirpstack-docs src/chirpstack/integrations/events.md; The Things Stack uplink:
//   lorawan-stack-docs doc/content/integrations/data-formats/_index.md; FRMPayload: a Lansitec bracelet message
//   laid out from document 990-01201 rev. 1.73, 4.4.4 (the manual prints no sample: the bytes are ours).
import { encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GatewayKind } from '@wearable/domain';
import {
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

const MINEW_TEST_FRAME = (length: number, rssi = 'b8') =>
  Buffer.from(
    'bb01' +
      length.toString(16).padStart(8, '0') +
      'ac233fffffff0001fee150bada550001' +
      '1a0201060303e1ff1216e1ffa1034affe7004500fa55daba50e1fe00' +
      rssi +
      'dd',
    'hex',
  );
const IBS01_BUTTON = '02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF';
const IBS01_IDLE = '02010612FF590080BC2B0104FFFFFFFFFFFFFFFFFFFF';

let t: TestApp;
let owner: UserRecord;
let orgId: string;
let clock = Date.now() - 30 * 60_000;

const freshMac = () =>
  (0xd00000000000 + Math.floor(Math.random() * 0xffffffffff))
    .toString(16)
    .toUpperCase()
    .padStart(12, '0');

interface Registered {
  id: string;
  credential: string;
  pathSecret: string | null;
  mqttTopic: string | null;
}

async function register(kind: GatewayKind): Promise<Registered> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/gateway',
    headers: owner.headers,
    payload: {
      clientId: orgId,
      type: 'STATIONARY',
      kind,
      serialNumber: `SN-${kind}-${Math.random()}`,
      name: kind,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const c = res.json<{ connection: Registered & { gatewayId: string } }>().connection;
  return {
    id: c.gatewayId,
    credential: c.credential,
    pathSecret: c.pathSecret,
    mqttTopic: c.mqttTopic,
  };
}

const basic = (g: Registered) =>
  `Basic ${Buffer.from(`${g.id}:${g.credential}`).toString('base64')}`;
const header = (g: Registered) => `Gateway ${g.id}:${g.credential}`;

function post(kind: GatewayKind, g: Registered, payload: Buffer | string | object, query = '') {
  const secretPath = g.pathSecret ? `/${g.id}/${g.pathSecret}` : '';
  return t.app.inject({
    method: 'POST',
    url: `/gateway/v1/${kind}${secretPath}${query}`,
    headers: {
      authorization: kind === 'minew' ? basic(g) : header(g),
      'content-type': 'application/octet-stream',
    },
    payload: Buffer.isBuffer(payload)
      ? payload
      : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)),
  });
}

const lansitecRecord = (mac: string, rssiByte: string, sos: boolean) =>
  mac + '48' + '04D2' + '55' + '78' + '50' + '0064' + rssiByte + (sos ? '01' : '00');
const chirpstackUp = (time: string, data: Buffer) => ({
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time,
  deviceInfo: { deviceName: 'Lansitec gateway', devEui: '0101010101010101' },
  fPort: 1,
  data: data.toString('base64'),
  rxInfo: [{ gatewayId: '0016c001f153a14c', rssi: -36, snr: 10.5 }],
});

const readingsOf = (braceletId: string) =>
  t.db.query<{ at: Date; rssi: number | null }>(
    `SELECT at, rssi FROM readings WHERE bracelet_id = $1 ORDER BY at`,
    [braceletId],
  );
const sosAlerts = (wearerId: string) =>
  t.db.query<{ place: { kind: string; gatewayId?: string; rssi?: number | null } | null }>(
    `SELECT place FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL'`,
    [wearerId],
  );

beforeAll(async () => {
  t = await createTestApp();
  // The clock is moved by hand: this app's own timers must not tick others' wearers.
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  t.ctx.now = () => new Date(clock);
  const org = await createOrganization(t);
  orgId = org.id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
});
afterAll(() => t?.close());

describe('the registration answer', () => {
  it('names each kind’s own MQTT topic (null where the kind posts over HTTP only)', async () => {
    const topics: Record<string, string | null> = {};
    for (const kind of ['native', 'aprilbrother', 'ingics', 'minew', 'chirpstack'] as const) {
      const g = await register(kind);
      topics[kind] = g.mqttTopic === null ? null : g.mqttTopic.replace(g.id, '<id>');
    }
    expect(topics).toEqual({
      native: 'gateways/<id>/batches',
      aprilbrother: 'gateways/<id>/aprilbrother',
      ingics: 'gateways/<id>/ingics',
      minew: null,
      chirpstack: null,
    });
  });
});

describe('a Minew BINARY-LONG frame', () => {
  it('whose length field is one byte off is refused whole (400): no RSSI -35, no invented device', async () => {
    const gw = await register('minew');
    const intact = await post('minew', gw, MINEW_TEST_FRAME(0x34));
    expect(intact.statusCode, intact.body).toBe(200);
    expect(intact.json()).toMatchObject({ refused: [], unknownDevices: 1 });
    for (const length of [0x33, 0x35]) {
      const res = await post('minew', gw, MINEW_TEST_FRAME(length));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(
        `body: frame declares ${length} bytes, 52 arrived: refused whole`,
      );
    }
    // Only the intact frame's tag, at its own -72 dBm, is listed as heard.
    const list = await t.app.inject({
      method: 'GET',
      url: `/v2/gateway/${gw.id}/unknownDevices`,
      headers: owner.headers,
    });
    const devices = list.json<{ devices: { deviceId: string; rssi: number | null }[] }>().devices;
    expect(devices.map((d) => [d.deviceId, d.rssi])).toEqual([['FEE150BADA55', -72]]);
  });
});

describe('a Lansitec bracelet message in a LoRaWAN uplink', () => {
  it('declaring 1 bracelet but carrying 2 stores neither, and names the SOS it seems to carry', async () => {
    const gw = await register('chirpstack');
    const [a, b] = [freshMac(), freshMac()];
    const wa = await createWearer(t, { organizationId: orgId, serialNumber: a });
    const wb = await createWearer(t, { organizationId: orgId, serialNumber: b });
    const message = Buffer.from(
      '91' + lansitecRecord(a, 'AA', false) + lansitecRecord(b, 'C4', true) + '35',
      'hex',
    );
    const logged = vi.spyOn(t.ctx.log, 'error');
    const res = await post(
      'chirpstack',
      gw,
      chirpstackUp(new Date(clock).toISOString(), message),
      '?event=up',
    );
    // 200: a network server does not resend, and The Things Stack disables a webhook after
    // successive non-2xx answers (docs/gateway-adapters.md, "LoRaWAN answers").
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      accepted: 0,
      refused: [
        {
          item: null,
          reason: expect.stringMatching(
            new RegExp(
              `^FRMPayload: bracelet message declares 1 bracelet \\(18 bytes\\), 34 arrived: refused whole; it seems to carry an SOS of ${b}`,
            ),
          ),
          sos: [b],
        },
      ],
    });
    expect(await readingsOf(wa.bracelet.id)).toEqual([]);
    expect(await readingsOf(wb.bracelet.id)).toEqual([]);
    expect(await sosAlerts(wb.uid)).toEqual([]);
    // Not opened, but never silent: the server logs an error naming the gateway and the bracelet.
    expect(logged).toHaveBeenCalledWith(
      { gatewayId: gw.id, kind: 'chirpstack' },
      expect.stringContaining(`seems to carry an SOS of ${b}: no alert was opened`),
    );
    logged.mockRestore();
  });

  it('intact, its SOS opens an alert placed with the bracelet’s own signal (-86 dBm)', async () => {
    const gw = await register('thethingsstack');
    const mac = freshMac();
    const w = await createWearer(t, { organizationId: orgId, serialNumber: mac });
    const res = await post('thethingsstack', gw, {
      end_device_ids: { device_id: 'dev1', dev_eui: '0004A30B001C0530' },
      uplink_message: {
        frm_payload: Buffer.from('91' + lansitecRecord(mac, 'AA', true) + '00', 'hex').toString(
          'base64',
        ),
        rx_metadata: [{ gateway_ids: { gateway_id: 'gtw1' }, rssi: -35 }],
        received_at: new Date(clock).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ refused: [], rejected: [] });
    expect((await readingsOf(w.bracelet.id)).map((r) => r.rssi)).toEqual([-86]);
    const [alert] = await sosAlerts(w.uid);
    expect(alert?.place).toMatchObject({ kind: 'gateway', gatewayId: gw.id, rssi: -86 });
  });
});

describe('a body of which nothing could be read', () => {
  it('is 400 with the reasons for every vendor kind', async () => {
    const bad: [GatewayKind, Buffer | string | object, string, RegExp][] = [
      [
        'minew',
        [
          { type: 'Gateway', mac: 'AC233FC001EA' },
          { mac: 'nope', rssi: -50 },
        ],
        '',
        /item 1: mac/,
      ],
      [
        'ingics',
        '$GPRP,nope,CB412F0C8EDC,-49,0201\n$XXXX,1',
        '',
        /item 0: tag id.*item 1: unknown/,
      ],
      [
        'aprilbrother',
        Buffer.from(encode({ v: '1.5.5', mid: 1, time: 1, devices: [new Uint8Array(3)] })),
        '',
        /item 0: device is 3 bytes/,
      ],
      ['chirpstack', { deviceInfo: {} }, '?event=up', /deviceInfo.devEui/],
      ['thethingsstack', { uplink_message: {} }, '', /end_device_ids is missing/],
    ];
    for (const [kind, body, query, reason] of bad) {
      const gw = await register(kind);
      const res = await post(kind, gw, body, query);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(400);
      expect(res.json<{ code: string; message: string }>()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(reason),
      });
    }
  });

  it('but heartbeats and a network server’s other events, which carry nothing to refuse, are 200', async () => {
    const ingics = await register('ingics');
    const beat = await post('ingics', ingics, '$HBRP,,E7DAE08E6FC3,,\r\n');
    expect(beat.statusCode, beat.body).toBe(200);
    const cs = await register('chirpstack');
    expect((await post('chirpstack', cs, { deviceInfo: {} }, '?event=status')).statusCode).toBe(
      200,
    );
  });
});

describe('an iBS01 button heard by two Ingics gateways', () => {
  it('keeps each gateway’s signal, so its SOS is placed at the stronger one', async () => {
    const [near, far] = [await register('ingics'), await register('ingics')];
    const mac = freshMac();
    const w = await createWearer(t, { organizationId: orgId, serialNumber: mac });
    const line = (g: Registered, rssi: number, ad: string) =>
      `$GPRP,${mac},${g.id === near.id ? 'C82B96AE3B04' : 'F008D1789208'},${rssi},${ad}`;
    // Idle advertisements (battery only) from both: the near one hears it at -50, the far one at -85.
    clock += 1000;
    expect((await post('ingics', near, line(near, -50, IBS01_IDLE))).statusCode).toBe(200);
    clock += 1000;
    expect((await post('ingics', far, line(far, -85, IBS01_IDLE))).statusCode).toBe(200);
    expect((await readingsOf(w.bracelet.id)).map((r) => r.rssi)).toEqual([-50, -85]);
    // The button is pressed: the far gateway's report arrives first, the near one's just after.
    clock += 1000;
    const first = await post('ingics', far, line(far, -86, IBS01_BUTTON));
    expect(first.json()).toMatchObject({ rejected: [], refused: [] });
    clock += 100;
    await post('ingics', near, line(near, -50, IBS01_BUTTON));
    const alerts = await sosAlerts(w.uid);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.place).toMatchObject({ kind: 'gateway', gatewayId: near.id, rssi: -50 });
  });
});
