import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE, smsLength } from '@wearable/domain';
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
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Issue 17, "every alert says where", told through the real app: a care home with two rooms, each
 * with a stationary gateway that reports how strongly it hears the bracelet; a resident walks from
 * the dining room to her room; she presses SOS. The alert stores the room, the SMS names it and links
 * to the console, the call says it (without the link), the list and the CSV show it; a phone
 * gateway's fresh position is used when there is one; another organisation sees nothing of it.
 */
let t: TestApp;
let owner: UserRecord;
let otherOwner: UserRecord;
let dining: GatewayRecord;
let room: GatewayRecord;
let resident: WearerRecord;
let walker: WearerRecord;
let groupId: string;
const PUBLIC_URL = 'https://console.example.jp';

beforeAll(async () => {
  t = await createTestApp({ publicUrl: PUBLIC_URL });
  const org = await createOrganization(t);
  const other = await createOrganization(t);
  const group = await createGroup(t, { organizationId: org.id, name: 'さくら棟' });
  groupId = group.id;
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  otherOwner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: other.id });
  await t.db.query("UPDATE users SET phone_number = '+819012340000' WHERE id = $1", [owner.uid]);
  dining = await createGateway(t, { organizationId: org.id, groupId, name: '1階 食堂' });
  room = await createGateway(t, { organizationId: org.id, groupId, name: '2階 203号室' });
  resident = await createWearer(t, {
    organizationId: org.id,
    groupId,
    name: '佐藤 花子',
    gateway: dining,
  });
  const phone = await createGateway(t, { organizationId: org.id, groupId, type: 'SMARTPHONE' });
  walker = await createWearer(t, { organizationId: org.id, groupId, gateway: phone });
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${groupId}/alertNoticeSettings`,
    headers: owner.headers,
    payload: {
      recipients: [
        {
          userId: owner.uid,
          channel: 'SMS',
          alertTypes: ['SOS_CALL'],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
        {
          phoneNumber: '+819055550000',
          channel: 'PHONE_CALL',
          alertTypes: ['SOS_CALL'],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
      ],
    },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => t.close());

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function batch(gateway: GatewayRecord, payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
    payload,
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ rejected: [] });
}

/** A reading of the wearer's bracelet as `gateway` heard it `minutesAgo` before now, with `rssi`. */
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

const openSos = (w: WearerRecord) =>
  until(
    async () =>
      (
        await t.db.query<{ id: string; place: unknown }>(
          "SELECT id, place FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'",
          [w.uid],
        )
      )[0],
  );

describe('an SOS says where the wearer is', () => {
  it('the room whose gateway heard her best, named in the SMS, the call, the list and the CSV', async () => {
    // In the dining room: heard well there, weakly from her room upstairs.
    for (const m of [9, 8, 7]) {
      await heard(resident, dining, m, -58);
      await heard(resident, room, m - 0.5, -80);
    }
    // On the stairs, between both: the room's gateway is a few dB stronger now and then; no move.
    await heard(resident, room, 6, -56);
    await heard(resident, dining, 5.5, -60);
    // In her room: clearly stronger there for a while, the dining room fades.
    for (const m of [5, 4, 3, 2, 1]) {
      await heard(resident, room, m, -48);
      await heard(resident, dining, m - 0.5, -85);
    }
    // She presses SOS; the event comes through the dining room's gateway (no signal strength):
    // a gateway that measured the signal is not displaced by one that did not.
    await batch(dining, {
      events: [
        { serialNumber: resident.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
      ],
    });
    const alert = await openSos(resident);
    expect(alert.place).toMatchObject({
      kind: 'gateway',
      gatewayId: room.id,
      gatewayName: '2階 203号室',
    });

    const sent = await until(async () => {
      const rows = await t.db.query<{ channel: string; text: string; status: string }>(
        'SELECT channel, text, status FROM notifications WHERE alert_id = $1 ORDER BY channel',
        [alert.id],
      );
      return rows.length === 2 && rows.every((r) => r.status !== 'queued') ? rows : undefined;
    });
    const sms = sent.find((r) => r.channel === 'SMS');
    const call = sent.find((r) => r.channel === 'PHONE_CALL');
    // Issue 36 item 4: the SMS fits one segment (compact: no group, "SOS", the gateway's name) and
    // ends with the alert's short link instead of the wearer's console path.
    expect(sms?.text).toMatch(
      new RegExp(
        `^【緊急】佐藤 花子さん SOS \\d\\d:\\d\\d 2階 203号室 ${PUBLIC_URL}/a/[0-9A-Za-z]{7}$`,
      ),
    );
    expect(smsLength(sms!.text).segments).toBe(1);
    expect(call?.text).toMatch(
      /^【緊急】佐藤 花子さん: SOS発信 \(さくら棟\) \d\d:\d\d 場所: 2階 203号室$/,
    );

    // The gateway is renamed later: the alert keeps the name it had (never recomputed).
    await t.db.query("UPDATE gateways SET name = '2階 談話室' WHERE id = $1", [room.id]);
    const list = await t.app.inject({
      url: `/v2/alert/list?uid=${resident.uid}`,
      headers: owner.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().alerts[0]).toMatchObject({
      id: alert.id,
      place: { kind: 'gateway', gatewayName: '2階 203号室' },
    });
    const csv = await t.app.inject({
      url: `/v2/alert/listCsv?uid=${resident.uid}&lng=en`,
      headers: owner.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Place at opening');
    expect(csv.body).toContain('Place: 2階 203号室');

    // Another organisation's owner learns nothing of it.
    const foreign = await t.app.inject({
      url: `/v2/alert/list?uid=${resident.uid}`,
      headers: otherOwner.headers,
    });
    expect(foreign.json().alerts ?? []).toEqual([]);
  });

  it("a phone gateway's fresh position comes first, with its accuracy", async () => {
    const phone = walker.gateway;
    const now = new Date().toISOString();
    await batch(phone, {
      events: [
        {
          serialNumber: walker.bracelet.serialNumber,
          type: 'SOS',
          at: now,
          location: { latitude: 35.6812, longitude: 139.7671, accuracy: 12.4, at: now },
        },
      ],
    });
    const alert = await openSos(walker);
    expect(alert.place).toMatchObject({
      kind: 'position',
      latitude: 35.6812,
      longitude: 139.7671,
      gatewayId: phone.id,
    });
    const sms = await until(async () => {
      const [row] = await t.db.query<{ text: string; status: string }>(
        "SELECT text, status FROM notifications WHERE alert_id = $1 AND channel = 'SMS'",
        [alert.id],
      );
      return row && row.status !== 'queued' ? row : undefined;
    });
    // Issue 36 item 4: a map link with the accuracy, never raw coordinates.
    expect(sms.text).toContain('地図(±12m) https://maps.google.com/?q=35.68120,139.76710 ');
    expect(sms.text).not.toContain('35.68120, 139.76710');
  });
});
