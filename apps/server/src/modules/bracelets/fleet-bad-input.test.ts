import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type World, buildWorld } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const LONG = 'x'.repeat(10_000);
/** Rows of every fleet table: a refused request changes none of them. */
const counts = async () =>
  (
    await t.db.query<{ n: string }>(
      // This file's organisations only: on a shared PostgreSQL database other test files add rows
      // to the same tables meanwhile.
      `SELECT concat_ws(',', (SELECT count(*) FROM organizations WHERE id = ANY($1)),
              (SELECT count(*) FROM groups WHERE organization_id = ANY($1)),
              (SELECT count(*) FROM gateways WHERE organization_id = ANY($1)),
              (SELECT count(*) FROM bracelets WHERE organization_id = ANY($1)),
              (SELECT count(*) FROM users WHERE organization_id = ANY($1)),
              (SELECT count(*) FROM bracelet_assignments a JOIN bracelets b ON b.id = a.bracelet_id
                WHERE b.organization_id = ANY($1)),
              (SELECT string_agg(coalesce(wearer_id, '-') || coalesce(gateway_id, '-') || heart_rate_duty_cycle, ',' ORDER BY id)
                 FROM bracelets WHERE organization_id = ANY($1)),
              (SELECT string_agg(name || '|' || coalesce(group_id, '-'), ',' ORDER BY id)
                 FROM gateways WHERE organization_id = ANY($1))) AS n`,
      [[w.orgA, w.orgB]],
    )
  )[0]!.n;

describe('bad fleet input: a 4xx naming the field, nothing half-written', () => {
  const owner = () => w.users.ORGANIZATION_OWNER.headers;
  const cases: [
    string,
    () => {
      method: 'POST' | 'PATCH';
      url: string;
      payload: object;
      headers?: Record<string, string>;
    },
    number,
    () => string,
  ][] = [
    [
      'duplicate bracelet serial',
      () => ({
        method: 'POST',
        url: '/v2/device',
        payload: { mediromOrganizationId: w.orgA, serialNumber: w.w1.bracelet.serialNumber },
      }),
      409,
      () => 'serialNumber',
    ],
    [
      "another organisation's bracelet serial",
      () => ({
        method: 'POST',
        url: '/v2/device',
        payload: { mediromOrganizationId: w.orgA, serialNumber: w.wB.bracelet.serialNumber },
      }),
      409,
      () => 'serialNumber',
    ],
    [
      'duplicate gateway serial',
      () => ({
        method: 'POST',
        url: '/v2/gateway',
        payload: {
          clientId: w.orgA,
          type: 'STATIONARY',
          serialNumber: w.w1.gateway.serialNumber,
          name: 'G',
        },
      }),
      409,
      () => 'serialNumber',
    ],
    [
      "linking another organisation's bracelet",
      () => ({
        method: 'POST',
        url: '/v2/user/device/link/gateway',
        payload: {
          clientId: w.orgA,
          uid: w.w2.uid,
          gatewayId: w.w1.gateway.id,
          serialNumber: w.wB.bracelet.serialNumber,
        },
      }),
      404,
      () => w.wB.bracelet.serialNumber,
    ],
    [
      "linking through another organisation's gateway",
      () => ({
        method: 'POST',
        url: '/v2/user/device/link/gateway',
        payload: {
          clientId: w.orgA,
          uid: w.w2.uid,
          gatewayId: w.wB.gateway.id,
          serialNumber: w.w2.bracelet.serialNumber,
        },
      }),
      404,
      () => w.wB.gateway.id,
    ],
    [
      "a gateway in another organisation's group",
      () => ({
        method: 'POST',
        url: '/v2/gateway',
        payload: {
          clientId: w.orgA,
          type: 'STATIONARY',
          serialNumber: 'GW-bad-group',
          name: 'G',
          groupId: w.wB.groupId,
        },
      }),
      400,
      () => 'body.groupId',
    ],
    [
      'duty cycle 7',
      () => ({
        method: 'PATCH',
        url: `/v2/user/${w.w1.uid}/device/setting`,
        payload: { heartRateDutyCycle: 7 },
      }),
      400,
      () => 'body.heartRateDutyCycle',
    ],
    [
      'a group that does not exist (add a wearer)',
      () => ({
        method: 'POST',
        url: '/v2/user/wearer',
        payload: { clientId: w.orgA, groupId: 'grp-none', name: 'A', birthDate: '1970-01-01' },
      }),
      404,
      () => 'grp-none',
    ],
    [
      'a group that does not exist (move)',
      () => ({
        method: 'POST',
        url: '/v2/group/grp-none/wearers/move',
        payload: { uids: [w.w1.uid] },
      }),
      404,
      () => 'grp-none',
    ],
    [
      "moving another organisation's wearer",
      () => ({
        method: 'POST',
        url: `/v2/group/${w.g2}/wearers/move`,
        payload: { uids: [w.w1.uid, w.wB.uid] },
      }),
      404,
      () => w.wB.uid,
    ],
    [
      'a group name of 10,000 characters',
      () => ({ method: 'POST', url: '/v2/group', payload: { clientId: w.orgA, name: LONG } }),
      400,
      () => 'body.name',
    ],
    [
      'a wearer name of 10,000 characters',
      () => ({
        method: 'POST',
        url: '/v2/user/wearer',
        payload: { clientId: w.orgA, groupId: w.g1, name: LONG, birthDate: '1970-01-01' },
      }),
      400,
      () => 'body.name',
    ],
    [
      'a gateway name of 10,000 characters',
      () => ({
        method: 'POST',
        url: '/v2/gateway',
        payload: { clientId: w.orgA, type: 'STATIONARY', serialNumber: 'GW-long', name: LONG },
      }),
      400,
      () => 'body.name',
    ],
    [
      'a bracelet name of 10,000 characters',
      () => ({
        method: 'PATCH',
        url: `/v2/user/${w.w1.uid}/device/setting`,
        payload: { deviceName: LONG },
      }),
      400,
      () => 'body.deviceName',
    ],
    [
      'an organisation name of 10,000 characters',
      () => ({ method: 'PATCH', url: `/v2/client/${w.orgA}`, payload: { name: LONG } }),
      400,
      () => 'body.name',
    ],
    [
      'a birth date in the future',
      () => ({
        method: 'POST',
        url: '/v2/user/wearer',
        payload: { clientId: w.orgA, groupId: w.g1, name: 'A', birthDate: '2999-01-01' },
      }),
      400,
      () => 'body.birthDate',
    ],
    [
      "moving a gateway into another organisation's group",
      () => ({
        method: 'PATCH',
        url: `/v2/gateway/${w.w1.gateway.id}`,
        payload: { groupId: w.wB.groupId },
      }),
      400,
      () => 'body.groupId',
    ],
    [
      'renaming a gateway to 10,000 characters',
      () => ({ method: 'PATCH', url: `/v2/gateway/${w.w1.gateway.id}`, payload: { name: LONG } }),
      400,
      () => 'body.name',
    ],
    [
      'a gateway change with nothing in it',
      () => ({ method: 'PATCH', url: `/v2/gateway/${w.w1.gateway.id}`, payload: {} }),
      400,
      () => 'name',
    ],
    [
      'an unknown gateway type',
      () => ({
        method: 'POST',
        url: '/v2/gateway',
        payload: { clientId: w.orgA, type: 'DRONE', serialNumber: 'GW-x', name: 'G' },
      }),
      400,
      () => 'body.type',
    ],
    [
      'a time zone that does not exist',
      () => ({
        method: 'PATCH',
        url: `/v2/client/${w.orgA}`,
        payload: { timeZone: 'Mars/Olympus' },
      }),
      400,
      () => 'body.timeZone',
    ],
  ];

  it.each(cases)('%s', async (_name, request, status, named) => {
    const before = await counts();
    const res = await t.app.inject({ ...request(), headers: owner() });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ message: string }>().message).toContain(named());
    expect(await counts()).toBe(before);
  });

  it('deleting a group with wearers is 409 and deletes nothing', async () => {
    const before = await counts();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v2/group/${w.g1}`,
      headers: owner(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ code: string }>().code).toBe('GROUP_NOT_EMPTY');
    expect(await counts()).toBe(before);
  });
});
