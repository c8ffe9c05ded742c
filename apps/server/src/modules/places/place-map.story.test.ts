import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMapPeople, type MapResponse, mapResponse, type SiteView } from '@wearable/domain';
import {
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type GatewayRecord,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { png } from '../../testing/images.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Where is everyone (issue 17, item 4), told through the real app: a care home's main building has
 * a plan with two gateways placed on it, the dining room and room 203. A resident is heard by both,
 * the dining room strongly first, then her room; she presses SOS. The map's one answer places her in
 * her room with the open SOS, first in the list; a resident never heard is there too, "unknown".
 * Another organisation's owner gets a 404, the manager of another group sees nobody.
 */
let t: TestApp;
let owner: UserRecord;
let general: UserRecord;
let otherOwner: UserRecord;
let otherManager: UserRecord;
let dining: GatewayRecord;
let room: GatewayRecord;
let resident: WearerRecord;
let quiet: WearerRecord;
let orgId: string;
let groupId: string;

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrganization(t);
  orgId = org.id;
  const other = await createOrganization(t);
  const group = await createGroup(t, { organizationId: org.id, name: 'さくら棟' });
  const otherGroup = await createGroup(t, { organizationId: org.id, name: 'ひまわり棟' });
  groupId = group.id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  general = await createUser(t, { role: 'ORGANIZATION_GENERAL', organizationId: org.id });
  otherOwner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: other.id });
  otherManager = await createUser(t, {
    role: 'ORGANIZATION_GROUP',
    organizationId: org.id,
    managedGroupIds: [otherGroup.id],
  });
  dining = await createGateway(t, { organizationId: org.id, groupId, name: '1階 食堂' });
  room = await createGateway(t, { organizationId: org.id, groupId, name: '2階 203号室' });
  resident = await createWearer(t, {
    organizationId: org.id,
    groupId,
    name: '佐藤 花子',
    gateway: dining,
  });
  quiet = await createWearer(t, {
    organizationId: org.id,
    groupId,
    name: '田中 一郎',
    gateway: dining,
  });
});
afterAll(() => t?.close());

async function batch(gateway: GatewayRecord, payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ rejected: [] });
}

const heard = (w: WearerRecord, gateway: GatewayRecord, minutesAgo: number, rssi: number) =>
  batch(gateway, {
    readings: [
      {
        serialNumber: w.bracelet.serialNumber,
        at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
        heartRate: 72,
        rssi,
      },
    ],
  });

const mapOf = (user: UserRecord, organizationId = orgId) =>
  t.app.inject({ url: `/v2/organization/${organizationId}/map`, headers: user.headers });

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the map says where everyone is', () => {
  it('places the resident at the gateway that hears her best, with her open SOS first', async () => {
    // The main building's plan, both gateways placed on it.
    const site = (
      await t.app.inject({
        method: 'POST',
        url: `/v2/organization/${orgId}/sites`,
        headers: owner.headers,
        payload: { name: '本館', groupId },
      })
    ).json<SiteView>();
    const upload = await t.app.inject({
      method: 'PUT',
      url: `/v2/site/${site.id}/plan`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: png(40, 20),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    for (const [gw, x] of [
      [dining, 0.2],
      [room, 0.8],
    ] as const) {
      const placed = await t.app.inject({
        method: 'PUT',
        url: `/v2/gateway/${gw.id}/place`,
        headers: owner.headers,
        payload: { plan: { siteId: site.id, x, y: 0.5 }, position: null },
      });
      expect(placed.statusCode, placed.body).toBe(200);
    }

    // In the dining room: heard well there, weakly from her room.
    for (const m of [9, 8, 7]) {
      await heard(resident, dining, m, -58);
      await heard(resident, room, m - 0.5, -80);
    }
    let map = (await mapOf(general)).json<MapResponse>();
    expect(decodeMapPeople(map).find((p) => p.wearerId === resident.uid)?.place).toMatchObject({
      kind: 'last-heard',
      gatewayId: room.id,
    });
    // Then in her room: clearly stronger there, the dining room fades.
    for (const m of [1.5, 1, 0.5]) {
      await heard(resident, room, m, -48);
      await heard(resident, dining, m - 0.25, -86);
    }
    map = (await mapOf(general)).json<MapResponse>();
    expect(decodeMapPeople(map).find((p) => p.wearerId === resident.uid)).toMatchObject({
      place: { kind: 'gateway', gatewayId: room.id },
      alert: null,
    });

    // She presses SOS through the dining room's gateway (no signal strength): she stays in her room.
    await batch(dining, {
      events: [
        { serialNumber: resident.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
      ],
    });
    const res = await until(async () => {
      const r = await mapOf(general);
      return r.json<MapResponse>().people[0]?.[4] ? r : undefined;
    });
    expect(res.statusCode).toBe(200);
    map = res.json<MapResponse>();
    // The route serialises the answer itself (to encode it): the contract's shape is checked here.
    expect(mapResponse.parse(map)).toEqual(map);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    // The compact rows: [wearerId, name, group, place, alert], gateways and groups by index, times in ms.
    const roomAt = map.gateways.findIndex((g) => g.gatewayId === room.id);
    expect(map.people[0]).toEqual([
      resident.uid,
      '佐藤 花子',
      0,
      ['gateway', roomAt, expect.any(Number)],
      [expect.any(String), 'SOS_CALL', 'EMERGENCY', expect.any(Number)],
    ]);
    expect(map.people[1]).toEqual([quiet.uid, quiet.name, 0, ['unknown'], null]);
    const [first, second] = decodeMapPeople(map);
    expect(first).toMatchObject({
      wearerId: resident.uid,
      name: '佐藤 花子',
      groupId,
      place: { kind: 'gateway', gatewayId: room.id },
      alert: { type: 'SOS_CALL', level: 'EMERGENCY' },
    });
    expect(second).toMatchObject({ wearerId: quiet.uid, place: { kind: 'unknown' }, alert: null });
    expect(map.gateways).toContainEqual({
      gatewayId: room.id,
      name: '2階 203号室',
      siteId: site.id,
      siteName: '本館',
    });
    expect(map.groups).toEqual([{ groupId, name: 'さくら棟' }]);
    // The alert stored the same place when it opened (one place function, two sources).
    const [alert] = await t.db.query<{ place: { gatewayId: string } }>(
      "SELECT place FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL'",
      [resident.uid],
    );
    expect(alert?.place.gatewayId).toBe(room.id);
  });

  it('with places shown only during alerts, withholds the others (owners change it, audited)', async () => {
    const url = `/v2/organization/${orgId}/placePrivacy`;
    const refused = await t.app.inject({
      method: 'PUT',
      url,
      headers: general.headers,
      payload: { placesOnlyDuringAlerts: true },
    });
    expect(refused.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { placesOnlyDuringAlerts: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('placesOnlyDuringAlerts');
    const set = await t.app.inject({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { placesOnlyDuringAlerts: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await t.app.inject({ url, headers: general.headers })).json()).toEqual({
      placesOnlyDuringAlerts: true,
    });

    const map = (await mapOf(general)).json<MapResponse>();
    expect(map.placesOnlyDuringAlerts).toBe(true);
    const people = decodeMapPeople(map);
    expect(people.find((p) => p.wearerId === resident.uid)?.place).toMatchObject({
      kind: 'gateway',
      gatewayId: room.id,
    });
    expect(people.find((p) => p.wearerId === quiet.uid)?.place).toEqual({ kind: 'withheld' });
    // A withheld row says nothing more, and no gateway is named for it.
    expect(map.people.find((r) => r[0] === quiet.uid)?.[3]).toEqual(['withheld']);
    expect(map.gateways.map((g) => g.gatewayId)).toEqual([room.id]);

    const audit = await t.app.inject({
      url: `/v2/audit?clientId=${orgId}&kind=placePrivacy.update`,
      headers: owner.headers,
    });
    expect(audit.json<{ entries: unknown[] }>().entries).toEqual([
      expect.objectContaining({
        actorId: owner.uid,
        before: { placesOnlyDuringAlerts: false },
        after: { placesOnlyDuringAlerts: true },
      }),
    ]);
    await t.app.inject({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { placesOnlyDuringAlerts: false },
    });
  });

  it('counts a gateway that heard the same reading another gateway delivered first', async () => {
    // One measurement, forwarded by both gateways: stored once, but both heard it.
    const at = new Date().toISOString();
    const reading = { serialNumber: quiet.bracelet.serialNumber, at, heartRate: 70 };
    await batch(dining, { readings: [{ ...reading, rssi: -88 }] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${room.id}:${room.credential}` },
      payload: { readings: [{ ...reading, rssi: -50 }] },
    });
    expect(res.json()).toMatchObject({ accepted: 0, duplicates: 1 });
    const map = (await mapOf(general)).json<MapResponse>();
    expect(decodeMapPeople(map).find((p) => p.wearerId === quiet.uid)?.place).toMatchObject({
      kind: 'gateway',
      gatewayId: room.id,
    });
  });

  it("shows nothing outside the caller's scope", async () => {
    const foreign = await mapOf(otherOwner);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'CLIENT_NOT_FOUND' });
    const otherGroup = await mapOf(otherManager);
    expect(otherGroup.statusCode).toBe(200);
    expect(otherGroup.json<MapResponse>().people).toEqual([]);
    const self = await createUser(t, {
      role: 'PERSONAL_SELF',
      organizationId: orgId,
      linkedWearerIds: [resident.uid],
    });
    expect((await mapOf(self)).statusCode).toBe(403);
  });

  it('names the field of a bad organisation id', async () => {
    const res = await mapOf(owner, 'x'.repeat(65));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('organizationId');
  });
});
