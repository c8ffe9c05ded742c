import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ENROLMENT_ERRORS,
  GATEWAY_SIGNED_OUT_CODE,
  PHONE_ENROLMENT_TTL_MS,
} from '@wearable/domain';
import { createGateway, createWearer, type GatewayRecord } from '../../testing/factories.js';
import { ACTOR_NAMES, type ActorName, type World, buildWorld } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { ENROL_TRIES_PER_CLIENT } from './phone-enrolment.service.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://console.example.test' });
  // Clock shifts below must not make this app run the cluster's timed jobs.
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  w = await buildWorld(t);
});
afterAll(() => t.close());
beforeEach(() => {
  t.ctx.now = () => new Date();
});

// Enrolment tries are limited per client address (on a table every test file shares on PostgreSQL):
// each test enrols from its own address.
const net = `10.${randomInt(1, 250)}.${randomInt(1, 250)}`;
let host = 0;
const newAddress = () => `${net}.${++host}`;

const owner = () => w.users.ORGANIZATION_OWNER.headers;
const phoneInG1 = (organizationId = w.orgA, groupId: string | null = w.g1) =>
  createGateway(t, { organizationId, groupId, type: 'SMARTPHONE', name: '山田さんの電話' });

// Who carries the phone is part of every code (issue 34); these stories use a shared phone.
const createCode = (gatewayId: string, headers = owner()) =>
  t.app.inject({
    method: 'POST',
    url: `/v2/gateway/${gatewayId}/enrolment`,
    headers,
    payload: { wearerId: null },
  });
const enrol = (code: unknown, remoteAddress = newAddress()) =>
  t.app.inject({ method: 'POST', url: '/v2/phone/enrol', payload: { code }, remoteAddress });
const send = (gatewayId: string, credential: string, payload: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gatewayId}:${credential}` },
    payload,
  });

async function codeFor(gateway: GatewayRecord, headers = owner()): Promise<string> {
  const res = await createCode(gateway.id, headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ code: string }>().code;
}

describe('enrolling a phone: the story', () => {
  it('staff create a code, the phone exchanges it once for a fresh credential and sees where it belongs', async () => {
    const gateway = await phoneInG1();
    const now = new Date();
    t.ctx.now = () => now;
    const res = await createCode(gateway.id);
    expect(res.statusCode, res.body).toBe(201);
    const { code, expiresAt, link } = res.json<{ code: string; expiresAt: string; link: string }>();
    // The code travels in the fragment (never sent to a server by a browser), not a query string.
    expect(link).toBe(`https://console.example.test/phone#enrol=${code}`);
    expect(link).not.toContain('?');
    expect(expiresAt).toBe(new Date(now.getTime() + PHONE_ENROLMENT_TTL_MS).toISOString());
    t.ctx.now = () => new Date();
    // Only the code's hash is stored.
    const stored = await t.db.query<{ codeHash: string }>(
      'SELECT code_hash AS "codeHash" FROM gateway_enrolments WHERE gateway_id = $1',
      [gateway.id],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.codeHash).not.toContain(code);
    expect(stored[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);

    const enrolled = await enrol(code);
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    const body = enrolled.json<{
      gatewayId: string;
      credential: string;
      organization: { id: string; name: string };
      group: { id: string; name: string } | null;
      gatewayName: string;
    }>();
    expect(body.gatewayId).toBe(gateway.id);
    expect(body.gatewayName).toBe('山田さんの電話');
    expect(body.organization.id).toBe(w.orgA);
    expect(body.organization.name).toEqual(expect.any(String));
    expect(body.group?.id).toBe(w.g1);
    // A fresh credential: it works, and the one the gateway had before is refused.
    expect(body.credential).not.toBe(gateway.credential);
    expect((await send(gateway.id, body.credential)).statusCode).toBe(200);
    const old = await send(gateway.id, gateway.credential);
    expect(old.statusCode).toBe(401);
    expect(old.json<{ code: string }>().code).toBe(GATEWAY_SIGNED_OUT_CODE);

    // Single use.
    const again = await enrol(code);
    expect(again.statusCode).toBe(410);
    expect(again.json<{ code: string }>().code).toBe(ENROLMENT_ERRORS.used);
    // The second try gave no credential: the first phone still sends.
    expect((await send(gateway.id, body.credential)).statusCode).toBe(200);
    const audit = await t.db.query<{ after: { enrolment?: string } }>(
      `SELECT after FROM audit_log WHERE target_id = $1 ORDER BY id`,
      [gateway.id],
    );
    expect(audit.map((a) => a.after.enrolment)).toEqual(['code created', 'phone enrolled']);
  });

  it('a gateway of no group enrols with group null', async () => {
    const gateway = await phoneInG1(w.orgA, null);
    const res = await enrol(await codeFor(gateway));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ group: unknown }>().group).toBeNull();
  });

  it('an expired code is refused (410), one just before its expiry works', async () => {
    const gateway = await phoneInG1();
    const late = await codeFor(gateway);
    t.ctx.now = () => new Date(Date.now() + PHONE_ENROLMENT_TTL_MS + 1000);
    const res = await enrol(late);
    expect(res.statusCode).toBe(410);
    expect(res.json<{ code: string; message: string }>()).toMatchObject({
      code: ENROLMENT_ERRORS.expired,
      message: expect.stringContaining('expired'),
    });
    t.ctx.now = () => new Date();
    const inTime = await codeFor(gateway);
    t.ctx.now = () => new Date(Date.now() + PHONE_ENROLMENT_TTL_MS - 60_000);
    expect((await enrol(inTime)).statusCode).toBe(200);
  });

  it('a new code replaces the older unused ones of the gateway', async () => {
    const gateway = await phoneInG1();
    const first = await codeFor(gateway);
    const second = await codeFor(gateway);
    const res = await enrol(first);
    expect(res.statusCode).toBe(410);
    expect(res.json<{ code: string }>().code).toBe(ENROLMENT_ERRORS.replaced);
    expect((await enrol(second)).statusCode).toBe(200);
    // Another gateway's codes are not touched.
    const other = await phoneInG1();
    const otherCode = await codeFor(other);
    await codeFor(gateway);
    expect((await enrol(otherCode)).statusCode).toBe(200);
  });

  it('an unknown code is a 400 naming the field; a malformed one too, before any look-up', async () => {
    const unknown = await enrol('A'.repeat(32));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ code: string; message: string }>()).toMatchObject({
      code: ENROLMENT_ERRORS.unknown,
      message: expect.stringMatching(/^code: /),
    });
    for (const bad of ['', 'short', 'has spaces in it, quite long', 42, null, 'x'.repeat(129)]) {
      const res = await enrol(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json<{ code: string; message: string }>().message).toContain('code');
    }
    const extra = await t.app.inject({
      method: 'POST',
      url: '/v2/phone/enrol',
      payload: { code: 'A'.repeat(32), gatewayId: 'x' },
      remoteAddress: newAddress(),
    });
    expect(extra.statusCode).toBe(400);
  });

  it('a code of a retired gateway is unknown', async () => {
    const gateway = await phoneInG1();
    const code = await codeFor(gateway);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v2/gateway/${gateway.id}`,
      headers: owner(),
    });
    expect(del.statusCode).toBe(200);
    const res = await enrol(code);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string }>().code).toBe(ENROLMENT_ERRORS.unknown);
  });

  it('only a SMARTPHONE gateway gets a code (400 naming it); nothing is stored', async () => {
    const box = await createGateway(t, { organizationId: w.orgA, groupId: w.g1 });
    const res = await createCode(box.id);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string; message: string }>()).toMatchObject({
      code: 'GATEWAY_NOT_SMARTPHONE',
      message: expect.stringContaining('SMARTPHONE'),
    });
    const rows = await t.db.query('SELECT 1 FROM gateway_enrolments WHERE gateway_id = $1', [
      box.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('tries with wrong codes are limited per address; a working code is given back', async () => {
    const from = newAddress();
    const gateway = await phoneInG1();
    // A good enrolment does not count against the address.
    expect((await enrol(await codeFor(gateway), from)).statusCode).toBe(200);
    for (let i = 0; i < ENROL_TRIES_PER_CLIENT; i++)
      expect((await enrol(`wrong-code-${i}-0123456789`, from)).statusCode).toBe(400);
    const blocked = await enrol('wrong-code-last-0123456789', from);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<{ code: string }>().code).toBe(ENROLMENT_ERRORS.tooMany);
    // Even a good code waits: the limit is on the address, before any look-up.
    const good = await codeFor(gateway);
    expect((await enrol(good, from)).statusCode).toBe(429);
    // Another address is not held back, and the code was not used by the refused try.
    expect((await enrol(good)).statusCode).toBe(200);
  });

  it('two phones racing with one code: exactly one gets the credential', async () => {
    const gateway = await phoneInG1();
    const code = await codeFor(gateway);
    const results = await Promise.all([enrol(code), enrol(code), enrol(code)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410, 410]);
    const winner = results.find((r) => r.statusCode === 200)!.json<{ credential: string }>();
    expect((await send(gateway.id, winner.credential)).statusCode).toBe(200);
  });
});

describe('signed out: revoking or rotating refuses the phone at its next send', () => {
  async function enrolledPhone() {
    const gateway = await phoneInG1();
    const res = await enrol(await codeFor(gateway));
    const { credential } = res.json<{ credential: string }>();
    expect((await send(gateway.id, credential)).statusCode).toBe(200);
    return { gateway, credential };
  }

  it('after a rotation', async () => {
    const { gateway, credential } = await enrolledPhone();
    const rot = await t.app.inject({
      method: 'POST',
      url: `/v2/gateway/${gateway.id}/credential`,
      headers: owner(),
    });
    expect(rot.statusCode).toBe(200);
    const res = await send(gateway.id, credential);
    expect(res.statusCode).toBe(401);
    expect(res.json<{ code: string; message: string }>()).toMatchObject({
      code: GATEWAY_SIGNED_OUT_CODE,
      message: expect.stringContaining('signed out'),
    });
  });

  it('after the gateway is retired', async () => {
    const { gateway, credential } = await enrolledPhone();
    await t.app.inject({ method: 'DELETE', url: `/v2/gateway/${gateway.id}`, headers: owner() });
    const res = await send(gateway.id, credential);
    expect(res.statusCode).toBe(401);
    expect(res.json<{ code: string; message: string }>()).toMatchObject({
      code: GATEWAY_SIGNED_OUT_CODE,
      message: expect.stringContaining('signed out'),
    });
  });

  it('after another phone enrols with a new code for the same gateway', async () => {
    const { gateway, credential } = await enrolledPhone();
    expect((await enrol(await codeFor(gateway))).statusCode).toBe(200);
    expect((await send(gateway.id, credential)).statusCode).toBe(401);
  });
});

describe('a phone enrolled in another organisation cannot write to mine', () => {
  it("organisation B's phone sends a reading and an SOS for organisation A's bracelet: nothing stored for A; the SOS is B's unassigned device", async () => {
    const mine = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
    const theirs = await createGateway(t, {
      organizationId: w.orgB,
      type: 'SMARTPHONE',
    });
    const res = await enrol(await codeFor(theirs, w.users.OTHER_ORG_OWNER.headers));
    expect(res.statusCode).toBe(200);
    const { gatewayId, credential, organization } = res.json<{
      gatewayId: string;
      credential: string;
      organization: { id: string };
    }>();
    expect(organization.id).toBe(w.orgB);
    const at = new Date().toISOString();
    const serialNumber = mine.bracelet.serialNumber;
    const batch = await send(gatewayId, credential, {
      readings: [{ serialNumber, at, heartRate: 72 }],
      events: [{ serialNumber, at, type: 'SOS' }],
    });
    expect(batch.statusCode).toBe(200);
    // The reading is refused; the SOS is never dropped (issue 34 item 1): B does not know the serial,
    // so it is B's unassigned device's alert, and A's wearer is not touched.
    expect(batch.json()).toMatchObject({
      accepted: 1,
      rejected: [{ list: 'readings', index: 0, reason: `unknown bracelet ${serialNumber}` }],
    });
    const stored = await t.db.query(
      `SELECT 1 FROM readings WHERE wearer_id = $1 UNION ALL SELECT 1 FROM device_events WHERE wearer_id = $1
       UNION ALL SELECT 1 FROM alerts WHERE wearer_id = $1`,
      [mine.uid],
    );
    expect(stored).toHaveLength(0);
    const unassigned = await t.db.query<{ organization_id: string }>(
      'SELECT organization_id FROM alerts WHERE device_serial = $1 AND wearer_id IS NULL',
      [serialNumber],
    );
    expect(unassigned.map((a) => a.organization_id)).toEqual([w.orgB]);
  });
});

// Codes: 2 = 201 created, 3 = 403 (the role never may), 4 = 404 (out of reach).
/*                                       create a code for a phone of group g1, org A */
const TABLE: Record<ActorName, string> = {
  ALL_OWNER: '2',
  ALL_GENERAL: '3',
  ORGANIZATION_OWNER: '2',
  ORGANIZATION_GENERAL: '3',
  ORGANIZATION_GROUP: '3',
  GROUP_MANAGER_OTHER_GROUP: '3',
  OTHER_ORG_OWNER: '4',
  PERSONAL_LINKED: '3',
  PERSONAL_UNLINKED: '3',
  PERSONAL_SELF: '3',
};
const STATUS: Record<string, number> = { '2': 201, '3': 403, '4': 404 };

describe('creating an enrolment code, by role (a phone of group g1, organisation A)', () => {
  it.each(ACTOR_NAMES)('%s', async (who) => {
    const gateway = await phoneInG1();
    const res = await createCode(gateway.id, w.users[who].headers);
    expect(res.statusCode, res.body).toBe(STATUS[TABLE[who]]);
    const rows = await t.db.query('SELECT 1 FROM gateway_enrolments WHERE gateway_id = $1', [
      gateway.id,
    ]);
    expect(rows).toHaveLength(res.statusCode === 201 ? 1 : 0);
    if (TABLE[who] === '4') expect(res.json<{ code: string }>().code).toBe('GATEWAY_NOT_FOUND');
  });

  it('without a token: 401', async () => {
    const gateway = await phoneInG1();
    const res = await t.app.inject({ method: 'POST', url: `/v2/gateway/${gateway.id}/enrolment` });
    expect(res.statusCode).toBe(401);
  });
});

describe("the phone's own status for staff: battery, charging, app version, last send", () => {
  const listOf = async (organizationId = w.orgA) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/client/${organizationId}/gateways`,
      headers: owner(),
    });
    expect(res.statusCode).toBe(200);
    return res.json<{
      gateways: {
        id: string;
        status: string;
        lastSeenAt: string | null;
        report: {
          at: string;
          battery: number | null;
          charging: boolean | null;
          appVersion: string | null;
        } | null;
      }[];
    }>().gateways;
  };

  it('a status in a batch is stored once, newer only, and staff see it beside online/offline', async () => {
    const gateway = await phoneInG1();
    const { credential } = (await enrol(await codeFor(gateway))).json<{ credential: string }>();
    expect((await listOf()).find((g) => g.id === gateway.id)).toMatchObject({
      status: 'offline',
      report: null,
    });
    const at = new Date(Date.now() - 1000).toISOString();
    const status = { at, battery: 64, charging: false, appVersion: '1.4.0' };
    const first = await send(gateway.id, credential, { batchId: 'b1', status });
    expect(first.json()).toMatchObject({ batchId: 'b1', accepted: 1, duplicates: 0, rejected: [] });
    // Re-sent unchanged: a duplicate, stored once.
    const again = await send(gateway.id, credential, { batchId: 'b1', status });
    expect(again.json()).toMatchObject({ accepted: 0, duplicates: 1, rejected: [] });
    const seen = (await listOf()).find((g) => g.id === gateway.id)!;
    expect(seen).toMatchObject({
      status: 'online',
      report: { at: new Date(at).toISOString(), battery: 64, charging: false, appVersion: '1.4.0' },
    });
    expect(seen.lastSeenAt).not.toBeNull();
    // An older status (a batch re-sent late) does not overwrite a newer one.
    const older = await send(gateway.id, credential, {
      status: { at: new Date(Date.now() - 60_000).toISOString(), battery: 90 },
    });
    expect(older.json()).toMatchObject({ accepted: 0, duplicates: 1 });
    expect((await listOf()).find((g) => g.id === gateway.id)!.report?.battery).toBe(64);
    // The detail page shows the same.
    const detail = await t.app.inject({
      method: 'GET',
      url: `/v2/gateway/${gateway.id}`,
      headers: owner(),
    });
    expect(detail.json<{ report: unknown }>().report).toMatchObject({ battery: 64 });
  });

  it('a bad status is refused alone with its reason; the readings of the batch are stored', async () => {
    const gateway = await phoneInG1();
    const { credential } = (await enrol(await codeFor(gateway))).json<{ credential: string }>();
    const wearer = await createWearer(t, { organizationId: w.orgA, groupId: w.g1 });
    const now = new Date().toISOString();
    const reading = { serialNumber: wearer.bracelet.serialNumber, at: now, heartRate: 70 };
    const cases: [unknown, string][] = [
      [{ at: now, battery: 101 }, 'battery'],
      [{ at: now, battery: 50.5 }, 'battery'],
      [{ at: now, appVersion: 'has space' }, 'appVersion'],
      [{ at: now, appVersion: 'v'.repeat(33) }, 'appVersion'],
      [{ at: now, charging: 'yes' }, 'charging'],
      [{ battery: 50 }, 'at'],
      [{ at: now, battery: 50, secret: 'x' }, 'secret'],
      [{ at: new Date(Date.now() + 10 * 60_000).toISOString() }, 'future'],
      ['full', 'expected object'],
    ];
    let minute = 0;
    for (const [status, reason] of cases) {
      const at = new Date(Date.now() - ++minute * 60_000).toISOString();
      const res = await send(gateway.id, credential, {
        readings: [{ ...reading, at }],
        status,
      });
      expect(res.statusCode, JSON.stringify(status)).toBe(200);
      const body = res.json<{ accepted: number; rejected: { list: string; reason: string }[] }>();
      expect(body.accepted, JSON.stringify(status)).toBe(1);
      expect(body.rejected, JSON.stringify(status)).toEqual([
        { list: 'status', index: 0, reason: expect.stringContaining(reason) },
      ]);
    }
    expect((await listOf()).find((g) => g.id === gateway.id)!.report).toBeNull();
    const stored = await t.db.query('SELECT 1 FROM readings WHERE wearer_id = $1', [wearer.uid]);
    expect(stored).toHaveLength(cases.length);
  });
});
