import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE, type SiteView } from '@wearable/domain';
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
 * The zone of an alert names the site (issue 17): a dining-room gateway placed on the plan of
 * "本館" through /settings/sites' endpoints; the resident presses SOS there; the alert stores
 * 「本館 · 1階 食堂」 as it was, and the SMS says it.
 */
let t: TestApp;
let owner: UserRecord;
let dining: GatewayRecord;
let resident: WearerRecord;

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrganization(t);
  const group = await createGroup(t, { organizationId: org.id, name: 'さくら棟' });
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  await t.db.query("UPDATE users SET phone_number = '+819012340001' WHERE id = $1", [owner.uid]);
  dining = await createGateway(t, { organizationId: org.id, groupId: group.id, name: '1階 食堂' });
  resident = await createWearer(t, {
    organizationId: org.id,
    groupId: group.id,
    name: '佐藤 花子',
    gateway: dining,
  });
  const notice = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${group.id}/alertNoticeSettings`,
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
      ],
    },
  });
  expect(notice.statusCode, notice.body).toBe(200);
});
afterAll(() => t?.close());

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('an SOS from a gateway placed on a site', () => {
  it('stores and sends the zone as "<site> · <gateway>"', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/v2/organization/${resident.organizationId}/sites`,
      headers: owner.headers,
      payload: { name: '本館' },
    });
    const site = created.json<SiteView>();
    const placed = await t.app.inject({
      method: 'PUT',
      url: `/v2/gateway/${dining.id}/place`,
      headers: owner.headers,
      payload: { plan: { siteId: site.id, x: 0.3, y: 0.6 }, position: null },
    });
    expect(placed.statusCode, placed.body).toBe(200);

    const now = new Date().toISOString();
    const res = await t.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${dining.id}:${dining.credential}` },
      payload: {
        readings: [
          { serialNumber: resident.bracelet.serialNumber, at: now, heartRate: 70, rssi: -55 },
        ],
        events: [{ serialNumber: resident.bracelet.serialNumber, type: 'SOS', at: now }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);

    const alert = await until(
      async () =>
        (
          await t.db.query<{ id: string; place: unknown }>(
            "SELECT id, place FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL'",
            [resident.uid],
          )
        )[0],
    );
    expect(alert.place).toMatchObject({
      kind: 'gateway',
      gatewayName: '1階 食堂',
      siteId: site.id,
      siteName: '本館',
    });
    const sms = await until(
      async () =>
        (
          await t.db.query<{ text: string }>(
            "SELECT text FROM notifications WHERE alert_id = $1 AND channel = 'SMS' AND status <> 'queued'",
            [alert.id],
          )
        )[0],
    );
    // Issue 36 item 4: the SMS fits one segment and names the gateway alone (its full text, the
    // call and the console say "本館 · 1階 食堂"; the stored place below keeps the site).
    expect(sms.text).toMatch(/ SOS \d\d:\d\d 1階 食堂 http\S+\/a\/[0-9A-Za-z]{7}$/);

    // Renaming the site later does not move the alert (never recomputed).
    await t.app.inject({
      method: 'PATCH',
      url: `/v2/site/${site.id}`,
      headers: owner.headers,
      payload: { name: '新館' },
    });
    const list = await t.app.inject({
      url: `/v2/alert/list?uid=${resident.uid}`,
      headers: owner.headers,
    });
    expect(list.json().alerts[0]).toMatchObject({ place: { siteName: '本館' } });
  });
});
