import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWearer } from '../../testing/factories.js';
import { ACTOR_NAMES, type ActorName, type World, buildWorld } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

/** A wearer of group g1 of organisation A with a gateway of its own (the thing each case changes). */
const freshInG1 = () => createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
const batch = (gatewayId: string, credential: string) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gatewayId}:${credential}` },
    payload: {},
  });

// Codes: 2 = success, 3 = 403 (the role never may), 4 = 404 (out of reach).
/*                                                  rotate delete */
const TABLE: Record<ActorName, [string, string]> = {
  ALL_OWNER: ['2', '2'],
  ALL_GENERAL: ['3', '3'],
  ORGANIZATION_OWNER: ['2', '2'],
  ORGANIZATION_GENERAL: ['3', '3'],
  ORGANIZATION_GROUP: ['3', '3'],
  GROUP_MANAGER_OTHER_GROUP: ['3', '3'],
  OTHER_ORG_OWNER: ['4', '4'],
  PERSONAL_LINKED: ['3', '3'],
  PERSONAL_UNLINKED: ['3', '3'],
  PERSONAL_SELF: ['3', '3'],
};
const STATUS: Record<string, number> = { '2': 200, '3': 403, '4': 404 };

describe('rotating and retiring a gateway, by role (a gateway of group g1, organisation A)', () => {
  describe.each(ACTOR_NAMES)('%s', (who) => {
    it('rotates the credential', async () => {
      const { gateway } = await freshInG1();
      const res = await t.app.inject({
        method: 'POST',
        url: `/v2/gateway/${gateway.id}/credential`,
        headers: w.users[who].headers,
      });
      expect(res.statusCode, res.body).toBe(STATUS[TABLE[who][0]]);
      // Only a rotation that happened refuses the old credential.
      expect((await batch(gateway.id, gateway.credential)).statusCode).toBe(
        res.statusCode === 200 ? 401 : 200,
      );
    });

    it('retires the gateway', async () => {
      const { gateway } = await freshInG1();
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/v2/gateway/${gateway.id}`,
        headers: w.users[who].headers,
      });
      expect(res.statusCode, res.body).toBe(STATUS[TABLE[who][1]]);
      const left = await t.db.query('SELECT 1 FROM gateways WHERE id = $1', [gateway.id]);
      expect(left.length).toBe(res.statusCode === 200 ? 0 : 1);
    });
  });
});

describe('retiring a gateway', () => {
  const owner = () => w.users.ORGANIZATION_OWNER.headers;

  it('refuses its credential at once, keeps its bracelets with their wearers (unlinked, unpaired) and audits it', async () => {
    const wearer = await freshInG1();
    const { gateway } = wearer;
    expect((await batch(gateway.id, gateway.credential)).statusCode).toBe(200); // cached as valid now
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v2/gateway/${gateway.id}`,
      headers: owner(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ gatewayId: gateway.id, unlinkedBracelets: 1 });
    expect((await batch(gateway.id, gateway.credential)).statusCode).toBe(401);

    const bracelet = await t.db.query<{
      wearer_id: string;
      gateway_id: string | null;
      paired_at: Date | null;
    }>('SELECT wearer_id, gateway_id, paired_at FROM bracelets WHERE id = $1', [
      wearer.bracelet.id,
    ]);
    expect(bracelet).toEqual([{ wearer_id: wearer.uid, gateway_id: null, paired_at: null }]);
    const paired = await t.app.inject({
      url: `/v2/device/isPairedWearable?targetUid=${wearer.uid}`,
      headers: owner(),
    });
    expect(paired.json()).toMatchObject({ isPaired: false });

    const list = await t.app.inject({ url: `/v2/client/${w.orgA}/gateways`, headers: owner() });
    expect(list.json<{ gateways: { id: string }[] }>().gateways.map((g) => g.id)).not.toContain(
      gateway.id,
    );
    const audit = await t.app.inject({
      url: `/v2/audit?clientId=${w.orgA}&kind=gateway.change`,
      headers: owner(),
    });
    expect(audit.body).toContain(gateway.id);
    expect(audit.body).toContain(gateway.serialNumber);

    // Gone: a second delete and its detail are 404.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v2/gateway/${gateway.id}`, headers: owner() }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: `/v2/gateway/${gateway.id}`, headers: owner() })).statusCode,
    ).toBe(404);
  });

  it('its serial number can be registered again afterwards', async () => {
    const { gateway } = await freshInG1();
    await t.app.inject({ method: 'DELETE', url: `/v2/gateway/${gateway.id}`, headers: owner() });
    const again = await t.app.inject({
      method: 'POST',
      url: '/v2/gateway',
      headers: owner(),
      payload: {
        clientId: w.orgA,
        type: 'SMARTPHONE',
        serialNumber: gateway.serialNumber,
        name: 'Again',
      },
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it.each([
    [
      "another organisation's gateway",
      () => `/v2/gateway/${w.wB.gateway.id}`,
      404,
      () => w.wB.gateway.id,
    ],
    ['a gateway that does not exist', () => '/v2/gateway/gw-none', 404, () => 'gw-none'],
    ['an id of 65 characters', () => `/v2/gateway/${'g'.repeat(65)}`, 400, () => 'gatewayId'],
  ])('bad input: %s', async (_name, url, status, named) => {
    // This file's organisations: other test files add gateways to a shared PostgreSQL meanwhile.
    const ours = () =>
      t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM gateways WHERE organization_id = ANY($1)',
        [[w.orgA, w.orgB]],
      );
    const before = await ours();
    const res = await t.app.inject({ method: 'DELETE', url: url(), headers: owner() });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ message: string }>().message).toContain(named());
    expect(await ours()).toEqual(before);
  });
});
