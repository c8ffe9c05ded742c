// Stories of issue 18 through the real app on a real database. Vectors: the Minew G1 BINARY-LONG sample of
// reelyActive barnowl-minew (test/unit/binarypacketdecoder.test.js, as in adapters/minew.test.ts); the
// ChirpStack v4 `up` event of chirpstack-docs integrations/events.md carrying a Lansitec bracelet message
// (document 990-01201, 4.4.4, as in adapters/chirpstack.test.ts); the April Brother V4 device frame of its user
// guide; Ingics iBS01 lines of ingics/ingics-message-parser.
import { encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayKind } from '@wearable/domain';
import { tickAll } from '../alerts/engine-turn.js';
import { redactUrl } from '../../plugins/logging.js';
import {
  createGateway,
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { MINEW_G1_BINARY_LONG } from '../../adapters/minew-vectors.js';

const MINEW_BINARY_LONG = MINEW_G1_BINARY_LONG;
const MINEW_TAG = '032E4A1AA95A';
const MINEW_TAG_COUNT = 12;
// Lansitec bracelet message: one bracelet C0A1B2C3D4E5, HR 72, steps 1234, battery 85 %, SOS set.
const LANSITEC_SOS = Buffer.from(
  '91' + 'C0A1B2C3D4E5' + '48' + '04D2' + '55' + '78' + '50' + '0064' + 'AA' + '01' + '00',
  'hex',
);
const chirpstackUp = (time: string, data: Buffer) => ({
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time,
  deviceInfo: { deviceName: 'Lansitec gateway', devEui: '0101010101010101' },
  fPort: 1,
  data: data.toString('base64'),
  rxInfo: [{ gatewayId: '0016c001f153a14c', rssi: -36, snr: 10.5 }],
});

let t: TestApp;
let owner: UserRecord;
let orgId: string;

interface Registered {
  id: string;
  credential: string;
  pathSecret: string | null;
}

async function register(kind: GatewayKind, as = owner, clientId = orgId): Promise<Registered> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/gateway',
    headers: as.headers,
    payload: {
      clientId,
      type: 'STATIONARY',
      kind,
      serialNumber: `SN-${kind}-${Math.random()}`,
      name: kind,
    },
  });
  expect(res.statusCode).toBe(201);
  const { connection } = res.json<{
    connection: { gatewayId: string; credential: string; pathSecret: string | null; kind: string };
  }>();
  expect(connection.kind).toBe(kind);
  return {
    id: connection.gatewayId,
    credential: connection.credential,
    pathSecret: connection.pathSecret,
  };
}

const basic = (g: { id: string; credential: string }) =>
  `Basic ${Buffer.from(`${g.id}:${g.credential}`).toString('base64')}`;

const readingsOf = (braceletId: string) =>
  t.db.query<{ at: Date; heartRate: number | null; battery: number | null }>(
    `SELECT at, heart_rate AS "heartRate", battery FROM readings WHERE bracelet_id = $1 ORDER BY at`,
    [braceletId],
  );
const openAlerts = async (wearerId: string) =>
  (
    await t.db.query<{ type: string }>(
      `SELECT type FROM alerts WHERE wearer_id = $1 AND status = 'OPEN'`,
      [wearerId],
    )
  ).map((r) => r.type);

beforeAll(async () => {
  t = await createTestApp();
  // The clock is moved back for one story: this app's own timers must not tick others' wearers.
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  // The vendors' vectors carry fixed MACs and DevEUIs, and serial numbers are unique across
  // organisations: on a PostgreSQL kept between runs, an earlier run's bracelets give them up.
  await t.db.query(
    `UPDATE bracelets SET serial_number = serial_number || '-run-' || id
      WHERE serial_number = ANY($1::text[])`,
    [[MINEW_TAG, 'C0A1B2C3D4E5', 'C0A1B2C3D4E6', '068B332CECE2', 'FE581D9DB308', '2FCDA8E1A7A6']],
  );
  const org = await createOrganization(t);
  orgId = org.id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
});
afterAll(() => t?.close());

describe('a Minew gateway (BINARY-LONG over HTTP, Basic authentication)', () => {
  it('shows a registered tag present, lists the others as heard, and the tag’s silence opens DISCONNECTION', async () => {
    const gw = await register('minew');
    const w = await createWearer(t, { organizationId: orgId, serialNumber: MINEW_TAG });
    const realNow = t.ctx.now;
    const heardAt = new Date(Date.now() - 20 * 60_000);
    t.ctx.now = () => heardAt;
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/minew',
      headers: { authorization: basic(gw), 'content-type': 'application/octet-stream' },
      payload: MINEW_BINARY_LONG,
    });
    t.ctx.now = realNow;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      accepted: 1,
      rejected: [],
      refused: [],
      unknownDevices: MINEW_TAG_COUNT - 1,
    });
    // Present: one presence reading at the time it was heard.
    expect((await readingsOf(w.bracelet.id)).map((r) => r.at.toISOString())).toEqual([
      heardAt.toISOString(),
    ]);
    // The others are a list, not readings.
    const list = await t.app.inject({
      url: `/v2/gateway/${gw.id}/unknownDevices`,
      headers: owner.headers,
    });
    expect(list.statusCode).toBe(200);
    const devices = list.json<{
      devices: { deviceId: string; rssi: number | null; lastHeardAt: string }[];
    }>().devices;
    expect(devices).toHaveLength(MINEW_TAG_COUNT - 1);
    expect(devices.map((d) => d.deviceId)).not.toContain(MINEW_TAG);
    expect(devices.find((d) => d.deviceId === '068B332CECE2')).toMatchObject({
      lastHeardAt: heardAt.toISOString(),
    });
    const [{ n }] = (await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM readings WHERE organization_id = $1`,
      [orgId],
    )) as [{ n: number }];
    expect(n).toBe(1);

    // Twenty minutes of silence: the engine's tick opens DISCONNECTION.
    await tickAll(t.ctx, new Date());
    await tickAll(t.ctx, new Date(Date.now() + 60_000));
    expect(await openAlerts(w.uid)).toContain('DISCONNECTION');
  });

  it('refuses a garbled or truncated body whole with the reason (400) and stores nothing', async () => {
    const gw = await register('minew');
    const garbled = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/minew',
      headers: { authorization: basic(gw), 'content-type': 'application/octet-stream' },
      payload: Buffer.from('not minew at all'),
    });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json<{ message: string }>().message).toMatch(
      /^body: .*neither BINARY-LONG nor JSON/,
    );
    const empty = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/minew',
      headers: { authorization: basic(gw), 'content-type': 'application/octet-stream' },
    });
    expect(empty.statusCode).toBe(400);
    // Cut inside the third tag: the frame is refused whole (issue 34), nothing of it is read.
    const truncated = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/minew',
      headers: { authorization: basic(gw), 'content-type': 'application/octet-stream' },
      payload: MINEW_BINARY_LONG.subarray(0, 200),
    });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json<{ message: string }>().message).toBe(
      'body: frame declares 881 bytes, 200 arrived: refused whole',
    );
  });
});

describe('a LoRaWAN network server (ChirpStack v4 HTTP integration, header secret)', () => {
  it('an uplink with SOS opens an SOS alert and stores the Lansitec heart rate', async () => {
    const gw = await register('chirpstack');
    const w = await createWearer(t, { organizationId: orgId, serialNumber: 'C0A1B2C3D4E5' });
    const time = new Date(Date.now() - 5_000).toISOString();
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/chirpstack?event=up',
      headers: { authorization: `Gateway ${gw.id}:${gw.credential}` },
      payload: chirpstackUp(time, LANSITEC_SOS),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rejected: [], refused: [] });
    expect(await openAlerts(w.uid)).toContain('SOS_CALL');
    const readings = await readingsOf(w.bracelet.id);
    expect(readings).toHaveLength(1);
    expect(readings[0]).toMatchObject({ heartRate: 72, battery: 85 });
    // Other events (join, status …) are accepted without output; a bad base64 payload is refused with its reason.
    const join = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/chirpstack?event=join',
      headers: { authorization: `Gateway ${gw.id}:${gw.credential}` },
      payload: { deviceInfo: { devEui: '0101010101010101' } },
    });
    expect(join.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/chirpstack?event=up',
      headers: { authorization: `Gateway ${gw.id}:${gw.credential}` },
      payload: { ...chirpstackUp(time, LANSITEC_SOS), data: 'q*==' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('body: data is not base64');
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/chirpstack?event=up',
      headers: {
        authorization: `Gateway ${gw.id}:${gw.credential}`,
        'content-type': 'application/json',
      },
      payload: '{"deviceInfo":',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('The Things Stack uplink_message goes the same way', async () => {
    const gw = await register('thethingsstack');
    const w = await createWearer(t, { organizationId: orgId, serialNumber: 'C0A1B2C3D4E6' });
    const payload = Buffer.from(LANSITEC_SOS);
    payload.set(Buffer.from('C0A1B2C3D4E6', 'hex'), 1);
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/thethingsstack',
      headers: { authorization: `Gateway ${gw.id}:${gw.credential}` },
      payload: {
        end_device_ids: { device_id: 'lansitec-1', dev_eui: '0101010101010102' },
        received_at: new Date().toISOString(),
        uplink_message: {
          f_port: 1,
          frm_payload: payload.toString('base64'),
          rx_metadata: [{ rssi: -40 }],
          received_at: new Date(Date.now() - 2000).toISOString(),
        },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(await openAlerts(w.uid)).toContain('SOS_CALL');
  });
});

describe('authentication per kind', () => {
  it('another organisation’s gateway credentials are refused; its gateway never writes our bracelets', async () => {
    const otherOrg = await createOrganization(t);
    const otherOwner = await createUser(t, {
      role: 'ORGANIZATION_OWNER',
      organizationId: otherOrg.id,
    });
    const ours = await register('minew');
    const theirs = await register('minew', otherOwner, otherOrg.id);
    const w = await createWearer(t, { organizationId: orgId, serialNumber: '068B332CECE2' });
    const post = (authorization: string) =>
      t.app.inject({
        method: 'POST',
        url: '/gateway/v1/minew',
        headers: { authorization, 'content-type': 'application/octet-stream' },
        payload: MINEW_BINARY_LONG,
      });
    // Our id with their credential, their id with ours: 401.
    expect((await post(basic({ id: ours.id, credential: theirs.credential }))).statusCode).toBe(
      401,
    );
    expect((await post(basic({ id: theirs.id, credential: ours.credential }))).statusCode).toBe(
      401,
    );
    // Their gateway with its own credential: our bracelet is only "heard" by them, never stored.
    const res = await post(basic(theirs));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 0, unknownDevices: MINEW_TAG_COUNT });
    expect(await readingsOf(w.bracelet.id)).toEqual([]);
    // Our owner cannot read their list; theirs lists our tag as heard.
    const foreign = await t.app.inject({
      url: `/v2/gateway/${theirs.id}/unknownDevices`,
      headers: owner.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('a gateway of another kind, a malformed header or no header is refused before the body is read', async () => {
    const native = await createGateway(t, { organizationId: orgId });
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/minew',
      headers: { authorization: basic(native), 'content-type': 'application/octet-stream' },
      payload: MINEW_BINARY_LONG,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'GATEWAY_KIND_MISMATCH' });
    for (const authorization of [
      '',
      'Basic',
      'Basic !!!',
      `Basic ${Buffer.from('x').toString('base64')}`,
      'Bearer x',
    ]) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/gateway/v1/minew',
        headers: { authorization, 'content-type': 'application/octet-stream' },
        payload: MINEW_BINARY_LONG,
      });
      expect(r.statusCode, authorization).toBe(401);
    }
  });

  it('a device that can send only a URL uses its secret path: never logged, rotated with the credential', async () => {
    const gw = await register('ingics');
    expect(gw.pathSecret).toMatch(/^[\w-]{40,}$/);
    const w = await createWearer(t, { organizationId: orgId, serialNumber: 'FE581D9DB308' });
    const line = `$GPRP,FE581D9DB308,2F9203AFA66B,-21,02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF,${Math.floor(Date.now() / 1000) - 2}\r\n`;
    const url = `/gateway/v1/ingics/${gw.id}/${gw.pathSecret}`;
    expect(redactUrl(url)).not.toContain(gw.pathSecret);
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'text/plain' },
      payload: line,
    });
    expect(res.statusCode).toBe(200);
    expect(await openAlerts(w.uid)).toContain('SOS_CALL');
    expect((await readingsOf(w.bracelet.id))[0]).toMatchObject({ battery: 100 });
    // A wrong secret, another gateway's id with this secret: 401.
    const other = await register('ingics');
    for (const bad of [
      `/gateway/v1/ingics/${gw.id}/${other.pathSecret}`,
      `/gateway/v1/ingics/${other.id}/${gw.pathSecret}`,
    ]) {
      const r = await t.app.inject({
        method: 'POST',
        url: bad,
        headers: { 'content-type': 'text/plain' },
        payload: line,
      });
      expect(r.statusCode).toBe(401);
    }
    // Rotation: the old path stops working at once, the new one works.
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/v2/gateway/${gw.id}/credential`,
      headers: owner.headers,
    });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json<{ pathSecret: string }>().pathSecret;
    expect(fresh).not.toBe(gw.pathSecret);
    const old = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'text/plain' },
      payload: line,
    });
    expect(old.statusCode).toBe(401);
    const now = await t.app.inject({
      method: 'POST',
      url: `/gateway/v1/ingics/${gw.id}/${fresh}`,
      headers: { 'content-type': 'text/plain' },
      payload: line,
    });
    expect(now.statusCode).toBe(200);
  });

  it('April Brother over HTTP: MessagePack with a huge declared length is refused whole, a short device entry by its index', async () => {
    const gw = await register('aprilbrother');
    const url = `/gateway/v1/aprilbrother/${gw.id}/${gw.pathSecret}`;
    const huge = Buffer.from([0x81, 0xa7, ...Buffer.from('devices'), 0xdd, 0xff, 0xff, 0xff, 0xff]);
    const r1 = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/msgpack' },
      payload: huge,
    });
    expect(r1.statusCode).toBe(400);
    expect(r1.json<{ message: string }>().message).toMatch(/^body: not MessagePack/);
    const device = Buffer.from(
      '00123B6A1A64CFAA0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5',
      'hex',
    );
    const r2 = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/msgpack' },
      payload: Buffer.from(
        encode({ v: '1.5.5', mac: 'C8FD19000001', devices: [device, Buffer.from('0012', 'hex')] }),
      ),
    });
    expect(r2.statusCode).toBe(200);
    expect(r2.json()).toMatchObject({ unknownDevices: 1, refused: [{ item: 1 }] });
  });
});

describe('heard, not registered', () => {
  it('registers a heard device as a bracelet in one click; it leaves the list, and twice is a conflict', async () => {
    const gw = await register('minew');
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/gateway/v1/minew',
        headers: { authorization: basic(gw), 'content-type': 'application/octet-stream' },
        payload: MINEW_BINARY_LONG,
      });
    await post();
    const reg = await t.app.inject({
      method: 'POST',
      url: `/v2/gateway/${gw.id}/unknownDevices/2FCDA8E1A7A6/bracelet`,
      headers: owner.headers,
    });
    expect(reg.statusCode).toBe(201);
    expect(reg.json()).toMatchObject({ serialNumber: '2FCDA8E1A7A6', clientId: orgId });
    const list = await t.app.inject({
      url: `/v2/gateway/${gw.id}/unknownDevices`,
      headers: owner.headers,
    });
    expect(
      list.json<{ devices: { deviceId: string }[] }>().devices.map((d) => d.deviceId),
    ).not.toContain('2FCDA8E1A7A6');
    const again = await t.app.inject({
      method: 'POST',
      url: `/v2/gateway/${gw.id}/unknownDevices/2FCDA8E1A7A6/bracelet`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(409);
    const badId = await t.app.inject({
      method: 'POST',
      url: `/v2/gateway/${gw.id}/unknownDevices/not-a-mac/bracelet`,
      headers: owner.headers,
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json<{ message: string }>().message).toMatch(/deviceId/);
  });
});
