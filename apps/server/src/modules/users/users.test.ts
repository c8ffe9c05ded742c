import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_TERMS_VERSION, ROLES, type Role } from '@wearable/domain';
import {
  createBracelet,
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  linkWearer,
  type WearerRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let orgId: string;
let groupId: string;
let w1: WearerRecord;
let w2: WearerRecord;
beforeAll(async () => {
  t = await createTestApp();
  orgId = (await createOrganization(t)).id;
  groupId = (await createGroup(t, { organizationId: orgId })).id;
  w1 = await createWearer(t, { organizationId: orgId, groupId, name: 'いとう' });
  w2 = await createWearer(t, { organizationId: orgId, groupId, name: 'あべ' });
});
afterAll(() => t.close());

const SPEC_FIELDS = [
  'agreedTermsOfUse',
  'devices',
  'gatewayId',
  'linkedUids',
  'mail',
  'mailVerified',
  'mediromOrganizationId',
  'name',
  'role',
  'uid',
];

async function userFor(role: Role) {
  switch (role) {
    case 'ALL_OWNER':
    case 'ALL_GENERAL':
      return createUser(t, { role });
    case 'ORGANIZATION_OWNER':
    case 'ORGANIZATION_GENERAL':
      return createUser(t, { role, organizationId: orgId });
    case 'ORGANIZATION_GROUP':
      return createUser(t, { role, organizationId: orgId, managedGroupIds: [groupId] });
    case 'PERSONAL':
      return createUser(t, { role, linkedWearerIds: [w1.uid, w2.uid] });
    case 'PERSONAL_SELF': {
      const self = await createUser(t, { role, organizationId: orgId, groupId });
      const gw = await createGateway(t, { organizationId: orgId, type: 'SMARTPHONE' });
      await createBracelet(t, { organizationId: orgId, wearerId: self.uid, gatewayId: gw.id });
      return Object.assign(self, { gatewayId: gw.id });
    }
  }
}

describe('GET /v2/user', () => {
  it.each(ROLES)('%s gets exactly the specification’s fields', async (role) => {
    const user = await userFor(role);
    const res = await t.app.inject({ url: '/v2/user', headers: user.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(SPEC_FIELDS);
    expect(body).toMatchObject({
      uid: user.uid,
      name: user.name,
      mail: user.email,
      mailVerified: true,
      role,
      agreedTermsOfUse: true,
      mediromOrganizationId: role.startsWith('ALL_') || role === 'PERSONAL' ? null : orgId,
    });
    if (role === 'PERSONAL') {
      expect(body.linkedUids).toEqual([w1.uid, w2.uid].sort());
      // Devices in Japanese name order: あべ (w2) before いとう (w1).
      expect(body.devices).toEqual([
        {
          deviceId: w2.bracelet.id,
          deviceName: w2.bracelet.deviceName,
          uid: w2.uid,
          usingWearableId: w2.bracelet.id,
          name: 'あべ',
        },
        {
          deviceId: w1.bracelet.id,
          deviceName: w1.bracelet.deviceName,
          uid: w1.uid,
          usingWearableId: w1.bracelet.id,
          name: 'いとう',
        },
      ]);
      expect(body.gatewayId).toBeNull();
    } else if (role === 'PERSONAL_SELF') {
      expect(body.linkedUids).toEqual([user.uid]);
      expect(body.gatewayId).toBe('gatewayId' in user ? user.gatewayId : 'missing');
      expect(body.devices).toHaveLength(1);
    } else {
      expect(body).toMatchObject({ linkedUids: [], devices: [], gatewayId: null });
    }
  });
});

describe('identity cache', () => {
  it('a change made right after a request shows on the next one', async () => {
    const personal = await createUser(t, { role: 'PERSONAL', linkedWearerIds: [w1.uid] });
    const get = () => t.app.inject({ url: '/v2/user', headers: personal.headers });
    expect((await get()).json().linkedUids).toEqual([w1.uid]);
    await linkWearer(t, personal, w2);
    expect((await get()).json().linkedUids).toEqual([w1.uid, w2.uid].sort());
    await t.db.query('UPDATE users SET name = $2 WHERE id = $1', [personal.uid, '改名']);
    expect((await get()).json().name).toBe('改名');
  });
});

describe('POST /v2/user/termsOfUse', () => {
  const post = (headers: { authorization: string }, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/user/termsOfUse',
      headers,
      payload: payload as object,
    });

  it('records the agreement with user, time and version', async () => {
    const user = await createUser(t, {
      role: 'ORGANIZATION_GENERAL',
      organizationId: orgId,
      agreedTerms: false,
    });
    const before = await t.app.inject({ url: '/v2/user', headers: user.headers });
    expect(before.json().agreedTermsOfUse).toBe(false);
    const res = await post(user.headers, { agreement: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: CURRENT_TERMS_VERSION, agreedAt: expect.any(String) });
    const rows = await t.db.query<{ version: string; agreed_at: Date }>(
      'SELECT version, agreed_at FROM terms_agreements WHERE user_id = $1',
      [user.uid],
    );
    expect(rows.map((r) => r.version)).toEqual([CURRENT_TERMS_VERSION]);
    expect(rows[0]!.agreed_at.toISOString()).toBe(res.json().agreedAt);
    const after = await t.app.inject({ url: '/v2/user', headers: user.headers });
    expect(after.json().agreedTermsOfUse).toBe(true);
    // Agreeing again keeps the first time.
    expect(
      (await post(user.headers, { agreement: true, version: CURRENT_TERMS_VERSION })).json()
        .agreedAt,
    ).toBe(res.json().agreedAt);
  });

  it.each([
    ['agreement false', { agreement: false }, 'body.agreement'],
    ['no agreement', {}, 'body.agreement'],
    ['agreement as a string', { agreement: 'true' }, 'body.agreement'],
    ['an unknown version', { agreement: true, version: '1999-01-01' }, 'body.version'],
  ])('refuses %s with a 400 naming the field, recording nothing', async (_case, payload, field) => {
    const user = await createUser(t, {
      role: 'ORGANIZATION_GENERAL',
      organizationId: orgId,
      agreedTerms: false,
    });
    const res = await post(user.headers, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    const rows = await t.db.query('SELECT 1 FROM terms_agreements WHERE user_id = $1', [user.uid]);
    expect(rows).toHaveLength(0);
  });

  it('needs a token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/user/termsOfUse',
      payload: { agreement: true },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents the identity routes', async () => {
    const res = await t.app.inject({ url: '/v2/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v2/auth/signIn',
        '/v2/auth/refresh',
        '/v2/auth/signOut',
        '/v2/user',
        '/v2/user/termsOfUse',
        '/v2/user/device/list',
        '/v2/client',
        '/v2/client/{id}',
        '/v2/user/organization/members',
      ]),
    );
  });
});
