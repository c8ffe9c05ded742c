import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_NAMES, type ActorName, type World, buildWorld } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

let n = 0;
const unique = () => `${Date.now().toString(36)}-${++n}`;

type Request = { method: 'GET' | 'POST' | 'PATCH'; url: string; payload?: object };
/** Every fleet endpoint, on organisation A's things in group g1 (w1, its gateway and bracelet). */
const ENDPOINTS: Record<string, () => Request> = {
  createClient: () => ({ method: 'POST', url: '/v2/client', payload: { name: `Org ${unique()}` } }),
  renameClient: () => ({
    method: 'PATCH',
    url: `/v2/client/${w.orgA}`,
    payload: { timeZone: 'Asia/Tokyo' },
  }),
  overview: () => ({ method: 'GET', url: `/v2/client/${w.orgA}/overview` }),
  createGroup: () => ({
    method: 'POST',
    url: '/v2/group',
    payload: { clientId: w.orgA, name: `G ${unique()}` },
  }),
  groupList: () => ({ method: 'GET', url: `/v2/client/${w.orgA}/groups` }),
  renameGroup: () => ({
    method: 'PATCH',
    url: `/v2/group/${w.g1}`,
    payload: { name: `第一現場 ${unique()}` },
  }),
  moveWearer: () => ({
    method: 'POST',
    url: `/v2/group/${w.g1}/wearers/move`,
    payload: { uids: [w.w1.uid] },
  }),
  noticeTest: () => ({
    method: 'POST',
    url: `/v2/group/${w.g1}/alertNoticeSettings/test`,
    payload: { channel: 'SMS', phoneNumber: '+819012345678' },
  }),
  registerGateway: () => ({
    method: 'POST',
    url: '/v2/gateway',
    payload: {
      clientId: w.orgA,
      groupId: w.g1,
      type: 'STATIONARY',
      serialNumber: `GW-${unique()}`,
      name: 'Gate',
    },
  }),
  gatewayList: () => ({ method: 'GET', url: `/v2/client/${w.orgA}/gateways?groupId=${w.g1}` }),
  gateway: () => ({ method: 'GET', url: `/v2/gateway/${w.w1.gateway.id}` }),
  environment: () => ({ method: 'GET', url: `/v2/gateway/${w.w1.gateway.id}/environment` }),
  renameGateway: () => ({
    method: 'PATCH',
    url: `/v2/gateway/${w.w1.gateway.id}`,
    payload: { name: 'Gate 1' },
  }),
  registerBracelet: () => ({
    method: 'POST',
    url: '/v2/device',
    payload: { mediromOrganizationId: w.orgA, serialNumber: `BR-${unique()}` },
  }),
  isPaired: () => ({ method: 'GET', url: `/v2/device/isPairedWearable?targetUid=${w.w1.uid}` }),
  deviceSetting: () => ({ method: 'GET', url: `/v2/user/${w.w1.uid}/device/setting` }),
  patchDeviceSetting: () => ({
    method: 'PATCH',
    url: `/v2/user/${w.w1.uid}/device/setting`,
    payload: { deviceName: 'Band' },
  }),
  linkGateway: () => ({
    method: 'POST',
    url: '/v2/user/device/link/gateway',
    payload: {
      clientId: w.orgA,
      uid: w.w1.uid,
      gatewayId: w.w1.gateway.id,
      serialNumber: w.w1.bracelet.serialNumber,
    },
  }),
};
type Endpoint = string;

// Codes: 2 = success (200/201), 3 = 403 (the role never may, or may read but not change), 4 = 404 (out of reach).
const ROW = (s: string): Record<Endpoint, string> =>
  Object.fromEntries(Object.keys(ENDPOINTS).map((e, i) => [e, s[i]!]));
/*                                    cC rC ov cG gL rG mW nT rGw gwL gw env rnG rB iP dS pDS lnk */
const TABLE: Record<ActorName, Record<Endpoint, string>> = {
  ALL_OWNER: ROW('222222222222222222'),
  ALL_GENERAL: ROW('332323333222332233'),
  ORGANIZATION_OWNER: ROW('322222222222222222'),
  ORGANIZATION_GENERAL: ROW('332323233222332222'),
  ORGANIZATION_GROUP: ROW('332323223222332222'),
  GROUP_MANAGER_OTHER_GROUP: ROW('332323443444334444'),
  OTHER_ORG_OWNER: ROW('344444444444444444'),
  PERSONAL_LINKED: ROW('333333333333333333'),
  PERSONAL_UNLINKED: ROW('333333333333333333'),
  PERSONAL_SELF: ROW('333333333333333333'),
};
const STATUS: Record<string, number[]> = { '2': [200, 201], '3': [403], '4': [404] };

describe('fleet endpoints by role (organisation A, group g1)', () => {
  describe.each(ACTOR_NAMES)('%s', (who) => {
    it.each(Object.keys(ENDPOINTS))('%s', async (endpoint) => {
      const req = ENDPOINTS[endpoint]!();
      const res = await t.app.inject({ ...req, headers: w.users[who].headers });
      expect(STATUS[TABLE[who][endpoint]!], `${who} ${endpoint}: ${res.body}`).toContain(
        res.statusCode,
      );
    });
  });

  it('a group manager sees only their groups in the group list and the overview', async () => {
    const list = await t.app.inject({
      url: `/v2/client/${w.orgA}/groups`,
      headers: w.users.GROUP_MANAGER_OTHER_GROUP.headers,
    });
    expect(list.json<{ groups: { id: string }[] }>().groups.map((g) => g.id)).toEqual([w.g2]);
    const overview = await t.app.inject({
      url: `/v2/client/${w.orgA}/overview`,
      headers: w.users.GROUP_MANAGER_OTHER_GROUP.headers,
    });
    expect(overview.json<{ groups: { id: string }[] }>().groups.map((g) => g.id)).toEqual([w.g2]);
    expect(
      overview
        .json<{ gateways: { groupId: string }[] }>()
        .gateways.every((g) => g.groupId === w.g2),
    ).toBe(true);
  });
});
