import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser, type UserRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { startDemoSimulator } from '../../simulator/demo-simulator.js';
import type { SimLogger } from '../../simulator/logger.js';

let t: TestApp;
beforeAll(async () => {
  // The simulated gateway reports a linked bracelet as soon as it sees the link.
  t = await createTestApp({ simulatorPairingDelaySeconds: 0 });
});
afterAll(() => t.close());

const log: SimLogger = { info: () => {}, warn: () => {}, error: () => {} };
const waitFor = async (check: () => Promise<boolean>, ms = 15_000) => {
  for (
    const end = Date.now() + ms;
    Date.now() < end;
    await new Promise((r) => setTimeout(r, 100))
  ) {
    if (await check()) return true;
  }
  return false;
};

describe('an owner builds an organisation from nothing', () => {
  let owner: UserRecord;
  const as = (u: UserRecord, method: string, url: string, payload?: object) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: u.headers,
      ...(payload ? { payload } : {}),
    });
  const batch = (gatewayId: string, credential: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${gatewayId}:${credential}` },
      payload,
    });

  it('group, gateway, bracelet, wearer, pairing, live; moving and handing over', async () => {
    const org = await createOrganization(t.db, { isDemo: true });
    owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });

    const site = (
      await as(owner, 'POST', '/v2/group', { clientId: org.id, name: '第一現場' })
    ).json<{ id: string }>();
    const office = (await as(owner, 'POST', '/v2/group', { clientId: org.id, name: '本社' })).json<{
      id: string;
    }>();

    const registered = await as(owner, 'POST', '/v2/gateway', {
      clientId: org.id,
      type: 'STATIONARY',
      serialNumber: `GW-${org.id}`,
      name: '詰所',
      groupId: site.id,
    });
    expect(registered.statusCode).toBe(201);
    const { gateway, connection } = registered.json<{
      gateway: { id: string };
      connection: { credential: string };
    }>();
    expect(connection).toMatchObject({
      gatewayId: gateway.id,
      serverUrl: t.ctx.config.publicUrl,
      mqttTopic: `gateways/${gateway.id}/batches`,
    });
    expect(connection.credential.length).toBeGreaterThan(30);
    // Shown once: nothing else returns it.
    expect((await as(owner, 'GET', `/v2/gateway/${gateway.id}`)).body).not.toContain(
      connection.credential,
    );

    // Upper case: serials are stored normalised (migration 033), and answers name them so.
    const serial = `BR-${org.id}`.toUpperCase();
    const bracelet = await as(owner, 'POST', '/v2/device', {
      mediromOrganizationId: org.id,
      serialNumber: serial,
      deviceName: 'バンド1',
    });
    expect(bracelet.statusCode).toBe(201);

    const hanako = (
      await as(owner, 'POST', '/v2/user/wearer', {
        clientId: org.id,
        groupId: site.id,
        name: '佐藤 花子',
        birthDate: '1960-02-01',
      })
    ).json<{ uid: string }>();
    const paired = async (uid: string) =>
      (await as(owner, 'GET', `/v2/device/isPairedWearable?targetUid=${uid}`)).json<{
        isPaired: boolean;
      }>().isPaired;

    const sim = await startDemoSimulator(t.ctx, log, {
      organization: org,
      startEmpty: true,
      backfillHours: 0,
      intervalMs: 200,
      pairingPollMs: 100,
      eventsPerHour: 0,
    });
    try {
      const link = await as(owner, 'POST', '/v2/user/device/link/gateway', {
        clientId: org.id,
        uid: hanako.uid,
        gatewayId: gateway.id,
        serialNumber: serial,
      });
      expect(link.json()).toMatchObject({
        isPaired: false,
        device: { uid: hanako.uid, gatewayId: gateway.id },
      });
      // The simulator's gateway hears the bracelet and reports it: the pairing completes.
      expect(await waitFor(() => paired(hanako.uid))).toBe(true);
    } finally {
      await sim?.stop();
    }

    // The gateway itself (its credential from registration) sends a reading: Hanako is live.
    const t1 = new Date(Date.now() - 120_000).toISOString();
    expect(
      (
        await batch(gateway.id, connection.credential, {
          readings: [{ serialNumber: serial, at: t1, heartRate: 77, worn: true }],
        })
      ).json<{ accepted: number }>().accepted,
    ).toBe(1);
    const summary = async (u: UserRecord) =>
      (await as(u, 'GET', '/v3/device/summary')).json<{
        wearers: { uid: string; heartRate: number | null }[];
      }>().wearers;
    expect((await summary(owner)).find((w) => w.uid === hanako.uid)?.heartRate).toBe(77);

    // Moving Hanako to the office moves her from one manager's screen to the other's.
    const siteManager = await createUser(t, {
      role: 'ORGANIZATION_GROUP',
      organizationId: org.id,
      managedGroupIds: [site.id],
    });
    const officeManager = await createUser(t, {
      role: 'ORGANIZATION_GROUP',
      organizationId: org.id,
      managedGroupIds: [office.id],
    });
    expect((await summary(siteManager)).map((w) => w.uid)).toContain(hanako.uid);
    expect(
      (
        await as(owner, 'POST', `/v2/group/${office.id}/wearers/move`, { uids: [hanako.uid] })
      ).json<{ moved: number }>().moved,
    ).toBe(1);
    expect(
      await waitFor(async () => !(await summary(siteManager)).some((w) => w.uid === hanako.uid)),
    ).toBe(true);
    expect((await summary(officeManager)).map((w) => w.uid)).toContain(hanako.uid);
    // A group with wearers is not deleted; an emptied one is.
    expect((await as(owner, 'DELETE', `/v2/group/${office.id}`)).statusCode).toBe(409);
    const spare = (await as(owner, 'POST', '/v2/group', { clientId: org.id, name: '予備' })).json<{
      id: string;
    }>();
    expect((await as(owner, 'DELETE', `/v2/group/${spare.id}`)).statusCode).toBe(204);

    // Handing the bracelet to Taro: what it measured before stays Hanako's, what it measures now is Taro's.
    const taro = (
      await as(owner, 'POST', '/v2/user/wearer', {
        clientId: org.id,
        groupId: site.id,
        name: '田中 太郎',
        birthDate: '1975-05-05',
      })
    ).json<{ uid: string }>();
    await as(owner, 'POST', '/v2/user/device/link/gateway', {
      clientId: org.id,
      uid: taro.uid,
      gatewayId: gateway.id,
      serialNumber: serial,
    });
    const t2 = new Date(Date.now() - 60_000).toISOString();
    expect(
      (
        await batch(gateway.id, connection.credential, {
          readings: [{ serialNumber: serial, at: t2, heartRate: 66 }],
        })
      ).json<{ accepted: number }>().accepted,
    ).toBe(1);
    const readings = await t.db.query<{ wearer_id: string; heart_rate: number }>(
      'SELECT wearer_id, heart_rate FROM readings WHERE organization_id = $1 ORDER BY at',
      [org.id],
    );
    expect(readings).toEqual([
      { wearer_id: hanako.uid, heart_rate: 77 },
      { wearer_id: taro.uid, heart_rate: 66 },
    ]);
    const history = await t.db.query<{ wearer_id: string; ended: boolean }>(
      'SELECT wearer_id, ended_at IS NOT NULL AS ended FROM bracelet_assignments ORDER BY started_at',
    );
    expect(history.filter((h) => [hanako.uid, taro.uid].includes(h.wearer_id))).toEqual([
      { wearer_id: hanako.uid, ended: true },
      { wearer_id: taro.uid, ended: false },
    ]);
    expect((await as(owner, 'GET', `/v2/user/${hanako.uid}/device/setting`)).statusCode).toBe(404);

    // A new duty cycle reaches the gateway as pending configuration until it acknowledges it.
    const changed = await as(owner, 'PATCH', `/v2/user/${taro.uid}/device/setting`, {
      heartRateDutyCycle: 5,
    });
    expect(changed.json()).toMatchObject({
      heartRateDutyCycle: 5,
      appliedDutyCycle: 1,
      configStatus: 'pending',
    });
    const result = (await batch(gateway.id, connection.credential, {})).json();
    expect(result.pendingConfig).toEqual([
      { serialNumber: serial, version: 1, heartRateDutyCycle: 5 },
    ]);
    const acked = (
      await batch(gateway.id, connection.credential, {
        configAcks: [{ serialNumber: serial, version: 1 }],
      })
    ).json();
    expect(acked.pendingConfig).toBeUndefined();
    expect((await as(owner, 'GET', `/v2/user/${taro.uid}/device/setting`)).json()).toMatchObject({
      appliedDutyCycle: 5,
      configStatus: 'applied',
    });

    // Rotating the credential: the old one is refused at once, the new one works.
    const rotated = (await as(owner, 'POST', `/v2/gateway/${gateway.id}/credential`)).json<{
      credential: string;
    }>();
    expect((await batch(gateway.id, connection.credential, {})).statusCode).toBe(401);
    expect((await batch(gateway.id, rotated.credential, {})).statusCode).toBe(200);

    // The gateway's status: online, its bracelet behind it.
    const detail = (await as(owner, 'GET', `/v2/gateway/${gateway.id}`)).json();
    expect(detail).toMatchObject({
      status: 'online',
      braceletCount: 1,
      bracelets: [{ serialNumber: serial, uid: taro.uid, isPaired: true }],
    });

    // Notice recipients, and a test SMS through the provider, in the notification log.
    const test = await as(owner, 'POST', `/v2/group/${site.id}/alertNoticeSettings/test`, {
      channel: 'SMS',
      phoneNumber: '+819011112222',
    });
    expect(test.json()).toMatchObject({ status: 'delivered', provider: 'embedded', error: null });
    const logged = (await as(owner, 'GET', '/v2/notifications')).json<{
      notifications: { id: string }[];
    }>().notifications;
    expect(
      logged.find((n) => n.id === test.json<{ notificationId: string }>().notificationId),
    ).toMatchObject({ recipient: '+819011112222', channel: 'SMS', status: 'delivered' });
  });
});
