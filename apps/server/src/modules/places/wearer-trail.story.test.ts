import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WearerTrail } from '@wearable/domain';
import {
  createGateway,
  createOrganization,
  createUser,
  createWearer,
  type GatewayRecord,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * A wearer's trail (issue 17, item 4 (g); docs/map.md), through the real app: a worker's phone
 * sends two positions, and a site gateway heard her for a while before; her trail of the last 12
 * hours has both positions (oldest first) and one stay at the gateway, from-to. An hour's trail
 * leaves out what is older. With "places only during alerts" on, the trail is withheld until an
 * SOS opens. Another organisation's owner gets a 404; a bad `hours` a 400 naming it.
 */
let t: TestApp;
let owner: UserRecord;
let otherOwner: UserRecord;
let phone: GatewayRecord;
let gate: GatewayRecord;
let worker: WearerRecord;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrganization(t);
  orgId = org.id;
  const other = await createOrganization(t);
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  otherOwner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: other.id });
  phone = await createGateway(t, { organizationId: org.id, name: 'スマホ 1' });
  gate = await createGateway(t, { organizationId: org.id, name: '正門' });
  worker = await createWearer(t, { organizationId: org.id, name: '山田 歩', gateway: phone });
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

const START = Date.now();
const ago = (minutes: number) => new Date(START - minutes * 60_000).toISOString();
const trailOf = (user: UserRecord, query = '') =>
  t.app.inject({ url: `/v2/wearer/${worker.uid}/trail${query}`, headers: user.headers });

describe("a wearer's trail", () => {
  it('has her phone positions and her stay at the gate, and an hour leaves out the older', async () => {
    // At the gate two to three hours ago, every 5 minutes.
    for (const m of [180, 175, 170, 165]) {
      await batch(gate, {
        readings: [{ serialNumber: worker.bracelet.serialNumber, at: ago(m), heartRate: 70 }],
      });
    }
    // Then out with the phone.
    for (const [m, lat] of [
      [30, 35.68],
      [20, 35.681],
    ] as const) {
      const at = ago(m);
      await batch(phone, {
        readings: [
          {
            serialNumber: worker.bracelet.serialNumber,
            at,
            heartRate: 80,
            location: { latitude: lat, longitude: 139.767, accuracy: 12, at },
          },
        ],
      });
    }
    const res = await trailOf(owner);
    expect(res.statusCode, res.body).toBe(200);
    const trail = res.json<WearerTrail>();
    expect(trail.withheld).toBe(false);
    expect(trail.positions.map((p) => p.latitude)).toEqual([35.68, 35.681]);
    const atGate = trail.stays.filter((s) => s.gatewayId === gate.id);
    expect(atGate).toEqual([
      { gatewayId: gate.id, name: '正門', siteName: null, from: ago(180), to: ago(165) },
    ]);
    expect(trail.stays.at(-1)!.gatewayId).toBe(phone.id);
    expect(new Date(trail.to).getTime() - new Date(trail.from).getTime()).toBe(12 * 3_600_000);

    const hour = (await trailOf(owner, '?hours=1')).json<WearerTrail>();
    expect(hour.positions).toHaveLength(2);
    expect(hour.stays.map((s) => s.gatewayId)).toEqual([phone.id]);
  });

  it('is withheld while the organisation shows places only during alerts, until an SOS opens', async () => {
    const set = await t.app.inject({
      method: 'PUT',
      url: `/v2/organization/${orgId}/placePrivacy`,
      headers: owner.headers,
      payload: { placesOnlyDuringAlerts: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    const hidden = (await trailOf(owner)).json<WearerTrail>();
    expect(hidden).toMatchObject({ withheld: true, positions: [], stays: [] });
    await batch(phone, {
      events: [{ serialNumber: worker.bracelet.serialNumber, type: 'SOS', at: ago(0) }],
    });
    const shown = (await trailOf(owner)).json<WearerTrail>();
    expect(shown.withheld).toBe(false);
    expect(shown.positions).toHaveLength(2);
  });

  it("is another organisation's 404, and a bad hours is a 400 naming it", async () => {
    const foreign = await trailOf(otherOwner);
    expect(foreign.statusCode).toBe(404);
    for (const q of ['?hours=0', '?hours=25', '?hours=abc']) {
      const bad = await trailOf(owner, q);
      expect(bad.statusCode, q).toBe(400);
      expect(bad.body, q).toContain('hours');
    }
  });
});
