import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatchResult, type PhoneCarrier, phoneBraceletSerial } from '@wearable/domain';
import { createGateway, type GatewayRecord } from '../../testing/factories.js';
import { type World, buildWorld } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Issue 34: a phone gateway belongs to a person. Enrolment says who carries the phone and pairs the
 * phone's own bracelet to them, so an SOS from a freshly enrolled phone opens that person's alert;
 * a shared phone chooses its person on the phone; what the phone could not deliver reaches staff.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://console.example.test' });
  w = await buildWorld(t);
});
afterAll(() => t.close());

const owner = () => w.users.ORGANIZATION_OWNER.headers;
const address = () => `10.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;

/** A wearer with no bracelet yet (the usual case for a lone worker with only a phone). */
async function bareWearer(organizationId = w.orgA, groupId: string | null = w.g1) {
  const id = `wr-${randomUUID()}`;
  const name = `佐藤 花子 ${id.slice(3, 7)}`;
  await t.db.query(
    `INSERT INTO users (id, organization_id, role, name, group_id, birth_date)
     VALUES ($1, $2, NULL, $3, $4, '1980-01-01')`,
    [id, organizationId, name, groupId],
  );
  return { id, name };
}

const phone = (groupId: string | null = w.g1, organizationId = w.orgA) =>
  createGateway(t, { organizationId, groupId, type: 'SMARTPHONE', name: '現場の電話' });

const createCode = (gatewayId: string, payload: object | undefined, headers = owner()) =>
  t.app.inject({
    method: 'POST',
    url: `/v2/gateway/${gatewayId}/enrolment`,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });

async function enrolled(gateway: GatewayRecord, wearerId: string | null) {
  const res = await createCode(gateway.id, { wearerId });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<{ code: string; carrier: PhoneCarrier }>();
  const answer = await t.app.inject({
    method: 'POST',
    url: '/v2/phone/enrol',
    payload: { code: created.code },
    remoteAddress: address(),
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const body = answer.json<{
    credential: string;
    carrier: PhoneCarrier;
    settings: { emergencyPhone?: string | null };
  }>();
  return { ...body, created: created.carrier, auth: `Gateway ${gateway.id}:${body.credential}` };
}

const sos = (auth: string, serialNumber: string) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: auth },
    payload: {
      batchId: `b-${randomUUID()}`,
      events: [{ serialNumber, type: 'SOS', at: new Date().toISOString() }],
    },
  });

const openSos = (wearerId: string) =>
  t.db.query<{ id: string }>(
    `SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'`,
    [wearerId],
  );

const phoneCall = (
  method: 'GET' | 'PUT' | 'POST',
  url: string,
  auth: string | undefined,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: auth ? { authorization: auth } : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

describe('a phone enrolled for a wearer: its SOS works with no other setup', () => {
  it("enrolment creates the phone's bracelet, pairs it to the wearer, and an SOS opens their alert", async () => {
    const gateway = await phone();
    const wearer = await bareWearer();
    const { carrier, created, auth } = await enrolled(gateway, wearer.id);
    const serial = phoneBraceletSerial(gateway.id);
    expect(created).toEqual({ shared: false, wearer, serialNumber: serial });
    expect(carrier).toEqual({ shared: false, wearer, serialNumber: serial });
    const rows = await t.db.query<{ wearerId: string; gatewayId: string; paired: boolean }>(
      `SELECT wearer_id AS "wearerId", gateway_id AS "gatewayId", paired_at IS NOT NULL AS paired
         FROM bracelets WHERE serial_number = $1`,
      [serial],
    );
    expect(rows).toEqual([{ wearerId: wearer.id, gatewayId: gateway.id, paired: true }]);

    const res = await sos(auth, carrier.serialNumber);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BatchResult>()).toMatchObject({ accepted: 1, rejected: [] });
    await expect.poll(async () => (await openSos(wearer.id)).length).toBe(1);
    // Staff see who carries it on the gateway.
    const list = await t.app.inject({
      method: 'GET',
      url: `/v2/gateway/${gateway.id}`,
      headers: owner(),
    });
    expect(list.json()).toMatchObject({ phoneCarrier: { shared: false, wearer } });
  });

  it('a wearer who already wears a bracelet keeps it; the phone sends for that bracelet', async () => {
    const gateway = await phone();
    const { carrier, auth } = await enrolled(gateway, w.w1.uid);
    expect(carrier.serialNumber).toBe(w.w1.bracelet.serialNumber);
    const band = await t.db.query<{ wearerId: string }>(
      'SELECT wearer_id AS "wearerId" FROM bracelets WHERE id = $1',
      [w.w1.bracelet.id],
    );
    expect(band[0]?.wearerId).toBe(w.w1.uid);
    const res = await sos(auth, carrier.serialNumber);
    expect(res.json<BatchResult>()).toMatchObject({ accepted: 1, rejected: [] });
  });

  it('enrolling the phone for another wearer moves its bracelet to them', async () => {
    const gateway = await phone();
    const first = await bareWearer();
    const second = await bareWearer();
    await enrolled(gateway, first.id);
    const { carrier } = await enrolled(gateway, second.id);
    expect(carrier.wearer).toEqual(second);
    const rows = await t.db.query<{ wearerId: string }>(
      'SELECT wearer_id AS "wearerId" FROM bracelets WHERE serial_number = $1',
      [phoneBraceletSerial(gateway.id)],
    );
    expect(rows).toEqual([{ wearerId: second.id }]);
  });
});

describe('enrolment code: bad input and other organisations', () => {
  it.each([
    ['no body', undefined, 400],
    ['no wearerId', {}, 400],
    ['an unknown key', { wearerId: null, extra: 1 }, 400],
    ['an empty wearerId', { wearerId: '' }, 400],
    ['a number', { wearerId: 3 }, 400],
    ['an unknown wearer', { wearerId: 'wr-nobody' }, 404],
  ])('%s: %i, nothing stored', async (_, payload, status) => {
    const gateway = await phone();
    const res = await createCode(gateway.id, payload);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ message: string }>().message).toEqual(expect.any(String));
    const rows = await t.db.query('SELECT 1 FROM gateway_enrolments WHERE gateway_id = $1', [
      gateway.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("another organisation's wearer is unknown (404); a staff member (not a wearer) too", async () => {
    const gateway = await phone();
    const foreign = await createCode(gateway.id, { wearerId: w.wB.uid });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json<{ code: string }>().code).toBe('WEARER_NOT_FOUND');
    const staff = await createCode(gateway.id, { wearerId: w.users.ORGANIZATION_GENERAL.uid });
    expect(staff.statusCode, staff.body).toBe(404);
  });

  it("another organisation's owner cannot create a code for my phone (404)", async () => {
    const gateway = await phone();
    const res = await createCode(gateway.id, { wearerId: null }, w.users.OTHER_ORG_OWNER.headers);
    expect(res.statusCode).toBe(404);
  });
});

describe('a shared phone: the person is chosen on the phone', () => {
  it('lists the wearers of its group, and choosing one re-pairs its bracelet; their SOS opens', async () => {
    const gateway = await phone(w.g1);
    const inGroup = await bareWearer(w.orgA, w.g1);
    const otherGroup = await bareWearer(w.orgA, w.g2);
    const { carrier, auth } = await enrolled(gateway, null);
    expect(carrier).toEqual({
      shared: true,
      wearer: null,
      serialNumber: phoneBraceletSerial(gateway.id),
    });
    // Nobody chosen yet: the bracelet exists, linked to the phone, worn by nobody; its SOS is not
    // dropped but opens an unassigned device's alert (issue 34 item 1).
    const before = await sos(auth, carrier.serialNumber);
    expect(before.json<BatchResult>()).toMatchObject({ accepted: 1, rejected: [] });
    const unassigned = await t.db.query(
      'SELECT 1 FROM alerts WHERE device_serial = $1 AND wearer_id IS NULL',
      [carrier.serialNumber],
    );
    expect(unassigned).toHaveLength(1);

    const list = await phoneCall('GET', '/v2/phone/wearers', auth);
    expect(list.statusCode, list.body).toBe(200);
    const ids = list.json<{ wearers: { id: string }[] }>().wearers.map((x) => x.id);
    expect(ids).toContain(inGroup.id);
    expect(ids).toContain(w.w1.uid);
    expect(ids).not.toContain(otherGroup.id);
    expect(ids).not.toContain(w.wB.uid);
    expect(ids).not.toContain(w.users.ORGANIZATION_OWNER.uid);

    const chosen = await phoneCall('PUT', '/v2/phone/carrier', auth, { wearerId: inGroup.id });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toEqual({
      shared: true,
      wearer: inGroup,
      serialNumber: phoneBraceletSerial(gateway.id),
    });
    const res = await sos(auth, phoneBraceletSerial(gateway.id));
    expect(res.json<BatchResult>()).toMatchObject({ accepted: 1, rejected: [] });
    await expect.poll(async () => (await openSos(inGroup.id)).length).toBe(1);

    // Handing the phone on: the next person gets its bracelet.
    const next = await bareWearer(w.orgA, w.g1);
    await phoneCall('PUT', '/v2/phone/carrier', auth, { wearerId: next.id });
    const rows = await t.db.query<{ wearerId: string }>(
      'SELECT wearer_id AS "wearerId" FROM bracelets WHERE serial_number = $1',
      [phoneBraceletSerial(gateway.id)],
    );
    expect(rows).toEqual([{ wearerId: next.id }]);
  });

  it("another group's or organisation's wearer is unknown (404); nothing changes", async () => {
    const gateway = await phone(w.g1);
    const otherGroup = await bareWearer(w.orgA, w.g2);
    const { auth } = await enrolled(gateway, null);
    for (const wearerId of [otherGroup.id, w.wB.uid, 'wr-nobody']) {
      const res = await phoneCall('PUT', '/v2/phone/carrier', auth, { wearerId });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json<{ code: string }>().code).toBe('WEARER_NOT_FOUND');
    }
    const rows = await t.db.query<{ wearerId: string | null }>(
      'SELECT wearer_id AS "wearerId" FROM bracelets WHERE serial_number = $1',
      [phoneBraceletSerial(gateway.id)],
    );
    expect(rows).toEqual([{ wearerId: null }]);
  });

  it('a phone for a named wearer cannot choose (409); bad bodies are 400; no credential is 401', async () => {
    const gateway = await phone(w.g1);
    const wearer = await bareWearer();
    const { auth } = await enrolled(gateway, wearer.id);
    const personal = await phoneCall('PUT', '/v2/phone/carrier', auth, { wearerId: w.w1.uid });
    expect(personal.statusCode, personal.body).toBe(409);
    expect(personal.json<{ code: string }>().code).toBe('PHONE_NOT_SHARED');
    expect((await phoneCall('GET', '/v2/phone/wearers', auth)).statusCode).toBe(409);

    const shared = await enrolled(await phone(w.g1), null);
    for (const payload of [{}, { wearerId: '' }, { wearerId: 1 }, { wearerId: 'x', more: 1 }]) {
      const res = await phoneCall('PUT', '/v2/phone/carrier', shared.auth, payload);
      expect(res.statusCode, res.body).toBe(400);
    }
    for (const header of [undefined, 'Bearer abc', `Gateway ${gateway.id}:wrong`]) {
      const res = await phoneCall('GET', '/v2/phone/wearers', header);
      expect(res.statusCode, res.body).toBe(401);
    }
  });

  it("a stationary gateway's credential is not a phone's (400)", async () => {
    const stationary = await createGateway(t, { organizationId: w.orgA, groupId: w.g1 });
    const res = await phoneCall(
      'GET',
      '/v2/phone/wearers',
      `Gateway ${stationary.id}:${stationary.credential}`,
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ code: string }>().code).toBe('GATEWAY_NOT_SMARTPHONE');
  });
});

describe('what the phone could not deliver reaches staff', () => {
  it('the report is kept on the gateway (staff see it) and audited; bad reports are 400', async () => {
    const gateway = await phone();
    const { auth } = await enrolled(gateway, await bareWearer().then((x) => x.id));
    const at = new Date(Date.now() - 60_000).toISOString();
    const res = await phoneCall('POST', '/v2/phone/deliveryFailure', auth, {
      type: 'SOS',
      at,
      reason: 'no network for 2 minutes',
    });
    expect(res.statusCode, res.body).toBe(204);
    const seen = await t.app.inject({
      method: 'GET',
      url: `/v2/gateway/${gateway.id}`,
      headers: owner(),
    });
    expect(seen.json()).toMatchObject({
      phoneFailure: { at, type: 'SOS', reason: 'no network for 2 minutes' },
    });
    for (const payload of [
      {},
      { type: 'HEART', at, reason: 'x' },
      { type: 'SOS', at: 'yesterday', reason: 'x' },
      { type: 'SOS', at, reason: '' },
      { type: 'SOS', at, reason: 'x'.repeat(301) },
    ]) {
      const bad = await phoneCall('POST', '/v2/phone/deliveryFailure', auth, payload);
      expect(bad.statusCode, bad.body).toBe(400);
    }
    const none = await phoneCall('POST', '/v2/phone/deliveryFailure', undefined, {
      type: 'SOS',
      at,
      reason: 'x',
    });
    expect(none.statusCode).toBe(401);
  });

  it("the organisation's emergency number reaches the phone; a bad number is 400", async () => {
    const set = await t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${w.orgA}`,
      headers: owner(),
      payload: { emergencyPhone: '03-1234-5678' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ emergencyPhone: '03-1234-5678' });
    const gateway = await phone();
    const { settings, auth, carrier } = await enrolled(gateway, null);
    expect(settings.emergencyPhone).toBe('03-1234-5678');
    const res = await sos(auth, carrier.serialNumber);
    expect(res.json<BatchResult>().gatewaySettings).toMatchObject({
      emergencyPhone: '03-1234-5678',
    });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${w.orgA}`,
      headers: owner(),
      payload: { emergencyPhone: 'call me' },
    });
    expect(bad.statusCode).toBe(400);
    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/v2/client/${w.orgA}`,
      headers: owner(),
      payload: { emergencyPhone: null },
    });
    expect(cleared.json()).toMatchObject({ emergencyPhone: null });
  });
});
