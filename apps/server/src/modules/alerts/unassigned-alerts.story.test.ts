import { randomInt, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE, phoneBraceletSerial, type AlertView } from '@wearable/domain';
import {
  createBracelet,
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type GatewayRecord,
  type UserRecord,
} from '../../testing/factories.js';
import { smsTo } from '../../testing/mail-outbox.js';
import { connectSse, until } from '../../testing/sse-client.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Issue 34, item 1, told through the real app: an SOS or a fall from a device no wearer holds (a
 * mistyped serial, a bracelet registered but never paired) opens an EMERGENCY alert all the same,
 * through every way in: a native gateway, a phone, a vendor gateway (Ingics), a LoRaWAN network
 * server (ChirpStack with a Lansitec bracelet message). The alert names the serial, the gateway and
 * its site; the gateway's group is told by SMS (the embedded SMS outbox: nothing outside is called);
 * a gateway's resend opens nothing new. Readings of unknown serials stay refused. Staff of the
 * organisation and the gateway's group managers see it; nobody else does.
 */
let t: TestApp;
let organizationId: string;
let owner: UserRecord;
let groupManager: UserRecord;
let otherGroupManager: UserRecord;
let family: UserRecord;
let outsider: UserRecord;
let gateway: GatewayRecord;
let phone: GatewayRecord;
let siteId: string;
const OWNER_PHONE = `+8190${randomInt(10_000_000, 99_999_999)}`;
const SPARE_PHONE = `+8180${randomInt(10_000_000, 99_999_999)}`;

beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://console.example.jp' });
  organizationId = (await createOrganization(t)).id;
  const group = await createGroup(t, { organizationId, name: '第一現場' });
  const otherGroup = await createGroup(t, { organizationId, name: '第二現場' });
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId });
  await t.db.query('UPDATE users SET phone_number = $2 WHERE id = $1', [owner.uid, OWNER_PHONE]);
  groupManager = await createUser(t, {
    role: 'ORGANIZATION_GROUP',
    organizationId,
    managedGroupIds: [group.id],
  });
  otherGroupManager = await createUser(t, {
    role: 'ORGANIZATION_GROUP',
    organizationId,
    managedGroupIds: [otherGroup.id],
  });
  const watched = await createWearer(t, { organizationId, groupId: group.id });
  family = await createUser(t, {
    role: 'PERSONAL',
    organizationId,
    linkedWearerIds: [watched.uid],
  });
  outsider = await createUser(t, {
    role: 'ORGANIZATION_OWNER',
    organizationId: (await createOrganization(t)).id,
  });
  gateway = await createGateway(t, { organizationId, groupId: group.id, name: '2階 詰所' });
  phone = await createGateway(t, {
    organizationId,
    groupId: group.id,
    type: 'SMARTPHONE',
    name: '巡回スマホ',
  });
  siteId = `site-${randomUUID()}`;
  await t.db.query(`INSERT INTO sites (id, organization_id, name) VALUES ($1, $2, '本館')`, [
    siteId,
    organizationId,
  ]);
  await t.db.query(
    `INSERT INTO gateway_places (gateway_id, organization_id, site_id, plan_x, plan_y, updated_at)
     VALUES ($1, $2, $3, 0.5, 0.5, now())`,
    [gateway.id, organizationId, siteId],
  );
  const notices = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${group.id}/alertNoticeSettings`,
    headers: owner.headers,
    payload: {
      recipients: [
        {
          userId: owner.uid,
          channel: 'SMS',
          alertTypes: ['SOS_CALL', 'DETECT_FALL_DOWN'],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
      ],
    },
  });
  expect(notices.statusCode, notices.body).toBe(200);
  // The other group's recipient: told of a device heard by a gateway of no group.
  const spare = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${otherGroup.id}/alertNoticeSettings`,
    headers: owner.headers,
    payload: {
      recipients: [
        {
          phoneNumber: SPARE_PHONE,
          channel: 'SMS',
          alertTypes: ['SOS_CALL'],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
      ],
    },
  });
  expect(spare.statusCode, spare.body).toBe(200);
});
afterAll(() => t?.close());

const send = (gw: { id: string; credential: string }, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gw.id}:${gw.credential}` },
    payload,
  });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const serialOf = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8).toUpperCase()}`;

/** The alerts of one device serial as `as` lists them. */
async function alertsOf(serial: string, as: UserRecord = owner): Promise<AlertView[]> {
  const res = await t.app.inject({ url: '/v2/alert/list?pageSize=200', headers: as.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ alerts: AlertView[] }>().alerts.filter((a) => a.device?.serial === serial);
}

describe('an SOS from a serial the organisation does not know (native gateway)', () => {
  const serial = serialOf('BR-DAIWA');
  const at = ago(3000);
  const batch = { batchId: `u-${serial}`, events: [{ serialNumber: serial, type: 'SOS', at }] };

  it('is accepted, opens one EMERGENCY alert naming the serial, gateway and site, and is told by SMS', async () => {
    const res = await send(gateway, batch);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [] });

    const alerts = await alertsOf(serial);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: 'SOS_CALL',
      level: 'EMERGENCY',
      status: 'OPEN',
      wearer: null,
      device: { serial, gatewayId: gateway.id, gatewayName: '2階 詰所' },
      groupName: '第一現場',
      openedAt: at,
      notified: true,
      cause: { rule: 'sos-button', values: { event: 'SOS', serialNumber: serial } },
      place: { kind: 'gateway', gatewayId: gateway.id, siteId, siteName: '本館' },
    });
    const [sms] = await smsTo(t.ctx, OWNER_PHONE, 1);
    expect(sms).toMatch(
      new RegExp(
        `^【緊急】未登録の端末 ${serial}: SOS発信 \\(第一現場\\) \\d\\d:\\d\\d .*本館`,
        'm',
      ),
    );
    // Escalation started as for any EMERGENCY (written just after the first step's SMS leaves).
    await expect
      .poll(
        async () =>
          (
            await t.db.query('SELECT 1 FROM notification_escalations WHERE alert_id = $1', [
              alerts[0]!.id,
            ])
          ).length,
        { timeout: 5000 },
      )
      .toBe(1);
  });

  it('a resend of the same batch opens nothing and tells nobody again', async () => {
    const before = (await smsTo(t.ctx, OWNER_PHONE, 1)).length;
    const res = await send(gateway, batch);
    expect(res.json()).toMatchObject({ accepted: 0, duplicates: 1, rejected: [] });
    expect(await alertsOf(serial)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await smsTo(t.ctx, OWNER_PHONE, 1, 0)).toHaveLength(before);
  });

  it('a second press while it is open is the same incident; its readings stay refused and unstored', async () => {
    const res = await send(gateway, {
      events: [{ serialNumber: serial, type: 'SOS', at: ago(1000) }],
      readings: [{ serialNumber: serial, at: ago(1000), heartRate: 80 }],
    });
    expect(res.json()).toMatchObject({
      accepted: 1,
      rejected: [{ list: 'readings', index: 0, reason: `unknown bracelet ${serial}` }],
    });
    expect(await alertsOf(serial)).toHaveLength(1);
    const stored = await t.db.query(
      `SELECT 1 FROM readings r JOIN bracelets b ON b.id = r.bracelet_id WHERE b.serial_number = $1`,
      [serial],
    );
    expect(stored).toHaveLength(0);
  });

  it('is seen by the organisation and the gateway’s group manager, by nobody else', async () => {
    expect(await alertsOf(serial, groupManager)).toHaveLength(1);
    expect(await alertsOf(serial, otherGroupManager)).toHaveLength(0);
    expect(await alertsOf(serial, family)).toHaveLength(0);
    expect(await alertsOf(serial, outsider)).toHaveLength(0);
    const [alert] = await alertsOf(serial);
    // A list of one wearer's alerts does not hold it.
    const watchedList = await t.app.inject({
      url: `/v2/alert/list?uid=${family.uid}`,
      headers: owner.headers,
    });
    expect(watchedList.json<{ alerts: AlertView[] }>().alerts.some((a) => a.id === alert!.id)).toBe(
      false,
    );
    // Another organisation's owner and another group's manager: no such alert; a family member's
    // role confirms nothing at all.
    for (const [who, status] of [
      [outsider, 404],
      [otherGroupManager, 404],
      [family, 403],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/alert/confirm',
        headers: who.headers,
        payload: { alertId: alert!.id },
      });
      expect(res.statusCode, res.body).toBe(status);
    }
  });

  it('staff confirm it; a later press opens a new alert, the old batch resent still opens nothing', async () => {
    const [alert] = await alertsOf(serial);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: groupManager.headers,
      payload: { alertId: alert!.id, reason: 'CHECKED_ON_SITE' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ result: 'confirmed' });
    expect((await alertsOf(serial))[0]).toMatchObject({
      status: 'CLOSED',
      closeReason: 'confirmed',
    });
    expect((await send(gateway, batch)).json()).toMatchObject({ accepted: 0 });
    expect(await alertsOf(serial)).toHaveLength(1);
    const again = await send(gateway, {
      events: [{ serialNumber: serial, type: 'SOS', at: ago(10) }],
    });
    expect(again.json()).toMatchObject({ accepted: 1 });
    expect((await alertsOf(serial)).map((a) => a.status)).toEqual(['OPEN', 'CLOSED']);
  });
});

describe('other ways a help call has no wearer', () => {
  it('a bracelet registered but paired to nobody: its fall opens the alert with its cause', async () => {
    const bracelet = await createBracelet(t, { organizationId });
    const res = await send(gateway, {
      events: [
        {
          serialNumber: bracelet.serialNumber,
          type: 'FALL',
          at: ago(2000),
          cause: { trigger: 'man-down', stillMinutes: 5 },
        },
      ],
    });
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [] });
    const alerts = await alertsOf(bracelet.serialNumber);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: 'DETECT_FALL_DOWN',
      level: 'EMERGENCY',
      wearer: null,
      cause: { rule: 'man-down', values: { registered: true, stillMinutes: 5 } },
    });
  });

  it('a phone gateway’s SOS for its unregistered PHONE-<id> bracelet opens at the phone’s position', async () => {
    const serial = phoneBraceletSerial(phone.id);
    const at = ago(1500);
    const res = await send(phone, {
      events: [
        {
          serialNumber: serial,
          type: 'SOS',
          at,
          location: { latitude: 35.68, longitude: 139.76, accuracy: 12, at },
        },
      ],
    });
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [] });
    expect(await alertsOf(serial)).toMatchObject([
      {
        type: 'SOS_CALL',
        device: { serial, gatewayId: phone.id, gatewayName: '巡回スマホ' },
        place: { kind: 'position', latitude: 35.68, longitude: 139.76, gatewayId: phone.id },
      },
    ]);
  });

  it('a gateway of no group: the organisation’s recipients are told', async () => {
    const loose = await createGateway(t, { organizationId, groupId: null, name: '倉庫' });
    const serial = serialOf('BR-LOOSE');
    const res = await send(loose, {
      events: [{ serialNumber: serial, type: 'SOS', at: ago(800) }],
    });
    expect(res.json()).toMatchObject({ accepted: 1 });
    expect(await alertsOf(serial)).toMatchObject([{ groupId: null, wearer: null }]);
    const [sms] = await smsTo(t.ctx, SPARE_PHONE, 1);
    expect(sms).toContain(`未登録の端末 ${serial}: SOS発信`);
    // The group manager of a group does not see what no group holds; the organisation's staff do.
    expect(await alertsOf(serial, groupManager)).toHaveLength(0);
  });
});

describe('the live stream', () => {
  async function liveAs(who: UserRecord, base: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/live/ticket',
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return connectSse(`${base}/v3/live?ticket=${res.json<{ ticket: string }>().ticket}`);
  }

  it('carries the opened alert to the organisation and the gateway’s group manager, to nobody else', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const streams = {
      owner: await liveAs(owner, base),
      groupManager: await liveAs(groupManager, base),
      otherGroupManager: await liveAs(otherGroupManager, base),
      family: await liveAs(family, base),
      outsider: await liveAs(outsider, base),
    };
    try {
      // The streams are open (their first frames came) before the SOS.
      await until(() =>
        Object.values(streams).every((s) => s.status() === 200) ? true : undefined,
      );
      await new Promise((r) => setTimeout(r, 300));
      const serial = serialOf('BR-LIVE');
      expect(
        (
          await send(gateway, { events: [{ serialNumber: serial, type: 'SOS', at: ago(500) }] })
        ).json(),
      ).toMatchObject({ accepted: 1 });
      const opened = (s: (typeof streams)['owner']) =>
        s.events.find(
          (e) =>
            e.event === 'alert' &&
            e.data.action === 'opened' &&
            (e.data.alert as unknown as AlertView | undefined)?.device?.serial === serial,
        );
      const frame = await until(() => opened(streams.owner));
      expect(frame.data.alert).toMatchObject({
        wearer: null,
        type: 'SOS_CALL',
        level: 'EMERGENCY',
      });
      await until(() => opened(streams.groupManager));
      await new Promise((r) => setTimeout(r, 500));
      expect(opened(streams.otherGroupManager)).toBeUndefined();
      expect(opened(streams.family)).toBeUndefined();
      expect(opened(streams.outsider)).toBeUndefined();
    } finally {
      for (const s of Object.values(streams)) s.close();
    }
  });
});

describe('vendor gateways', () => {
  async function register(kind: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/gateway',
      headers: owner.headers,
      payload: {
        clientId: organizationId,
        type: 'STATIONARY',
        kind,
        serialNumber: `SN-${kind}-${randomUUID()}`,
        name: kind,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{
      connection: { gatewayId: string; credential: string; pathSecret: string | null };
    }>().connection;
  }

  it('an Ingics iBS01 button of an unregistered tag (ingics-message-parser line) opens an SOS, once', async () => {
    const gw = await register('ingics');
    // The iBS01 line of ingics/ingics-message-parser with its button bit set, from a tag nobody registered.
    const tag = `FE58${randomUUID().replaceAll('-', '').slice(0, 8).toUpperCase()}`;
    const line = `$GPRP,${tag},2F9203AFA66B,-21,02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF,${Math.floor(Date.now() / 1000) - 2}\r\n`;
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: `/gateway/v1/ingics/${gw.gatewayId}/${gw.pathSecret}`,
        headers: { 'content-type': 'text/plain' },
        payload: line,
      });
    const res = await post();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [] });
    expect(await alertsOf(tag)).toMatchObject([
      { type: 'SOS_CALL', wearer: null, device: { serial: tag, gatewayId: gw.gatewayId } },
    ]);
    expect((await post()).json()).toMatchObject({ accepted: 0 });
    expect(await alertsOf(tag)).toHaveLength(1);
  });

  it('a ChirpStack uplink with a Lansitec SOS of an unknown bracelet (Lansitec 990-01201, 4.4.4) opens an SOS', async () => {
    const gw = await register('chirpstack');
    const mac = `C0A1${randomUUID().replaceAll('-', '').slice(0, 8).toUpperCase()}`;
    const message = Buffer.from(
      '91' + mac + '48' + '04D2' + '55' + '78' + '50' + '0064' + 'AA' + '01' + '00',
      'hex',
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/chirpstack?event=up',
      headers: { authorization: `Gateway ${gw.gatewayId}:${gw.credential}` },
      payload: {
        deduplicationId: randomUUID(),
        time: ago(4000),
        deviceInfo: { deviceName: 'Lansitec gateway', devEui: '0101010101010101' },
        fPort: 1,
        data: message.toString('base64'),
        rxInfo: [{ gatewayId: '0016c001f153a14c', rssi: -36, snr: 10.5 }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rejected: [] });
    expect(await alertsOf(mac)).toMatchObject([{ type: 'SOS_CALL', level: 'EMERGENCY' }]);
  });
});
