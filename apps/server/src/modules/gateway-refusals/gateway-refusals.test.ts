// Issue 34 item 3: refused data is visible where staff look. Told through the real app: a native gateway
// sends readings for a mistyped and a lower-case serial; staff read the gateway's grouped refusals with a
// "did you mean"; a gateway's own mistakes (no Authorization, a Bearer token, a time without offset) are
// named; another organisation's staff cannot read the list.
import { randomUUID } from 'node:crypto';
import { encode } from '@msgpack/msgpack';
import mqtt from 'mqtt';
import { gatewayTopics } from '@wearable/domain';
import { GATEWAY_REFUSING_MS } from '@wearable/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createBracelet,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { startMqtt } from '../../mqtt/mqtt.js';

let t: TestApp;
let w: WearerRecord;
let owner: UserRecord;
/** A serial of its own per run (serial numbers are global; a kept PostgreSQL keeps rows). */
const run = randomUUID().slice(0, 6).toUpperCase();
const REGISTERED = `BR-DAIWA-${run}-01`;
const TYPO = `BR-DAIWA-${run}-001`;

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrganization(t);
  w = await createWearer(t, { organizationId: org.id, serialNumber: REGISTERED });
  owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
});
afterAll(() => t.close());

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const send = (payload: object, authorization?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers:
      authorization === undefined ? {} : { authorization, 'content-type': 'application/json' },
    payload,
  });
const asGateway = (g: { id: string; credential: string }) => `Gateway ${g.id}:${g.credential}`;

interface Refusals {
  gatewayId: string;
  refusals: {
    reason: string;
    serialNumber: string | null;
    list: string;
    detail: string;
    count: number;
    lastAt: string;
    suggestion: string | null;
  }[];
}
const refusalsOf = (gatewayId: string, headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'GET', url: `/v2/gateway/${gatewayId}/refusals${query}`, headers });

describe('a gateway page lists what was refused', () => {
  it('groups a mistyped serial by reason and serial, with its count and a suggestion', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await send(
        { readings: [{ serialNumber: TYPO, at: minutesAgo(5 - i), heartRate: 70 }] },
        asGateway(w.gateway),
      );
      expect(res.json()).toMatchObject({
        accepted: 0,
        rejected: [{ list: 'readings', index: 0, reason: `unknown bracelet ${TYPO}` }],
      });
    }
    const res = await refusalsOf(w.gateway.id, owner.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json<Refusals>();
    expect(body.refusals).toEqual([
      expect.objectContaining({
        reason: 'UNKNOWN_BRACELET',
        serialNumber: TYPO,
        list: 'readings',
        count: 3,
        suggestion: REGISTERED,
      }),
    ]);
  });

  it('accepts a serial in lower case with spaces around it: it is the same bracelet', async () => {
    const res = await send(
      {
        readings: [
          { serialNumber: `  ${REGISTERED.toLowerCase()} `, at: minutesAgo(1), heartRate: 71 },
        ],
      },
      asGateway(w.gateway),
    );
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [] });
  });

  it('registers serials normalised: a lower-case registration is the same bracelet', async () => {
    const serial = `br-lower-${run}`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/device',
      headers: owner.headers,
      payload: { mediromOrganizationId: w.organizationId, serialNumber: ` ${serial}` },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ serialNumber: serial.toUpperCase() });
    const again = await t.app.inject({
      method: 'POST',
      url: '/v2/device',
      headers: owner.headers,
      payload: { mediromOrganizationId: w.organizationId, serialNumber: serial.toUpperCase() },
    });
    expect(again.statusCode).toBe(409);
  });

  it('lists a bracelet nobody wears, a value out of range and a time without offset apart', async () => {
    const spare = await createBracelet(t, { organizationId: w.organizationId });
    const res = await send(
      {
        readings: [
          { serialNumber: spare.serialNumber, at: minutesAgo(2), heartRate: 70 },
          { serialNumber: REGISTERED, at: minutesAgo(2), heartRate: 400 },
          { serialNumber: REGISTERED, at: '2026-12-01T04:02:00', heartRate: 70 },
        ],
        events: [{ serialNumber: REGISTERED, type: 'WORN', at: '2026-12-01T04:02' }],
      },
      asGateway(w.gateway),
    );
    const answer = res.json<{ rejected: { list: string; index: number; reason: string }[] }>();
    expect(answer.rejected).toEqual(
      expect.arrayContaining([
        {
          list: 'readings',
          index: 2,
          reason: 'at: needs a UTC offset (Z or ±hh:mm), e.g. 2026-12-01T04:02:00+09:00',
        },
        {
          list: 'events',
          index: 0,
          reason: 'at: needs a UTC offset (Z or ±hh:mm), e.g. 2026-12-01T04:02:00+09:00',
        },
      ]),
    );
    const body = (await refusalsOf(w.gateway.id, owner.headers)).json<Refusals>();
    const byReason = (reason: string) => body.refusals.filter((r) => r.reason === reason);
    expect(byReason('NO_WEARER')).toEqual([
      expect.objectContaining({ serialNumber: spare.serialNumber, count: 1, suggestion: null }),
    ]);
    expect(byReason('VALUE_OUT_OF_RANGE')).toEqual([
      expect.objectContaining({ serialNumber: REGISTERED, count: 1 }),
    ]);
    expect(byReason('TIME_OFFSET_MISSING')).toEqual([
      expect.objectContaining({ serialNumber: REGISTERED, count: 2 }),
    ]);
    // Latest first; the gateway list shows it as still refusing.
    const list = await t.app.inject({
      method: 'GET',
      url: `/v2/client/${w.organizationId}/gateways`,
      headers: owner.headers,
    });
    const row = list
      .json<{ gateways: { id: string; lastRefusalAt: string | null }[] }>()
      .gateways.find((g) => g.id === w.gateway.id);
    expect(Date.now() - new Date(row!.lastRefusalAt!).getTime()).toBeLessThan(GATEWAY_REFUSING_MS);
  });

  it('logs a warning once a minute per gateway, naming reason and count, never the credential', async () => {
    const gw = (await createWearer(t, { organizationId: w.organizationId })).gateway;
    const warn = vi.spyOn(t.ctx.log, 'warn');
    try {
      for (let i = 0; i < 3; i++)
        await send(
          { readings: [{ serialNumber: `NOPE-${run}-${i}`, at: minutesAgo(1), heartRate: 70 }] },
          asGateway(gw),
        );
      const mine = warn.mock.calls.filter(
        ([obj]) => (obj as { gatewayId?: string }).gatewayId === gw.id,
      );
      expect(mine).toHaveLength(1);
      expect(mine[0]?.[0]).toMatchObject({ refused: { UNKNOWN_BRACELET: 1 }, count: 1 });
      expect(JSON.stringify(mine)).not.toContain(gw.credential);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('who may read the list', () => {
  it('another organisation cannot; a group member outside the gateway group cannot', async () => {
    const other = await createOrganization(t);
    const stranger = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: other.id });
    const res = await refusalsOf(w.gateway.id, stranger.headers);
    expect(res.statusCode).toBe(404);
    const general = await createUser(t, {
      role: 'ORGANIZATION_GENERAL',
      organizationId: w.organizationId,
    });
    expect((await refusalsOf(w.gateway.id, general.headers)).statusCode).toBe(200);
    const group = await createGroup(t, { organizationId: w.organizationId });
    const grouped = await createWearer(t, { organizationId: w.organizationId, groupId: group.id });
    const elsewhere = await createGroup(t, { organizationId: w.organizationId });
    const groupUser = await createUser(t, {
      role: 'ORGANIZATION_GROUP',
      organizationId: w.organizationId,
      groupId: elsewhere.id,
      managedGroupIds: [elsewhere.id],
    });
    expect([403, 404]).toContain(
      (await refusalsOf(grouped.gateway.id, groupUser.headers)).statusCode,
    );
    const wearerSelf = await createUser(t, { role: 'PERSONAL', organizationId: w.organizationId });
    expect((await refusalsOf(w.gateway.id, wearerSelf.headers)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/gateway/${w.gateway.id}/refusals` }))
        .statusCode,
    ).toBe(401);
  });

  it('answers 400 naming a bad window', async () => {
    for (const q of ['?withinMinutes=abc', '?withinMinutes=0', '?withinMinutes=99999']) {
      const res = await refusalsOf(w.gateway.id, owner.headers, q);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('withinMinutes');
    }
  });
});

describe("a gateway's own mistakes are named", () => {
  const batch = { readings: [] };
  it('no Authorization header', async () => {
    const res = await send(batch);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'GATEWAY_AUTHORIZATION_MISSING' });
  });
  it('a Bearer token where Gateway <id>:<credential> belongs', async () => {
    const res = await send(batch, owner.headers.authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'GATEWAY_AUTHORIZATION_SCHEME' });
    expect(res.json<{ message: string }>().message).toContain('Gateway <gatewayId>:<credential>');
  });
  it('the Gateway scheme without id:credential', async () => {
    const res = await send(batch, `Gateway ${w.gateway.id}`);
    expect(res.json()).toMatchObject({ statusCode: 401, code: 'GATEWAY_AUTHORIZATION_MALFORMED' });
  });
  it('an unknown id and a wrong credential stay one answer', async () => {
    const unknown = await send(batch, `Gateway gw-nobody-${run}:secret`);
    const wrong = await send(batch, `Gateway ${w.gateway.id}:not-the-credential`);
    for (const res of [unknown, wrong]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'GATEWAY_UNAUTHORIZED' });
    }
    expect(unknown.json<{ message: string }>().message).toBe(
      wrong.json<{ message: string }>().message,
    );
  });
});

describe('every kind of gateway', () => {
  // The April Brother V4 user guide's example iBeacon, as in vendor-lookups.story.test.ts.
  const IBEACON = '0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5';
  it("a vendor gateway's refused items are listed like a native one's", async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/v2/gateway',
      headers: owner.headers,
      payload: {
        clientId: w.organizationId,
        type: 'STATIONARY',
        kind: 'aprilbrother',
        serialNumber: `SN-ab-${run}`,
        name: 'AB V4',
      },
    });
    expect(registered.statusCode).toBe(201);
    const c = registered.json<{ connection: { gatewayId: string; pathSecret: string } }>()
      .connection;
    // A registered bracelet nobody wears: heard, resolved, and refused by ingestion.
    const mac = (0xd10000000000 + Math.floor(Math.random() * 0xffffffffff))
      .toString(16)
      .toUpperCase()
      .padStart(12, '0');
    await createBracelet(t, { organizationId: w.organizationId, serialNumber: mac });
    const res = await t.app.inject({
      method: 'POST',
      url: `/gateway/v1/aprilbrother/${c.gatewayId}/${c.pathSecret}`,
      headers: { 'content-type': 'application/msgpack' },
      payload: Buffer.from(
        encode({
          v: '1.5.5',
          mid: 1,
          time: 1,
          ip: '192.168.1.20',
          mac: 'C8FD19000001',
          devices: [Buffer.from(`00${mac}B4${IBEACON}`, 'hex')],
        }),
      ),
    });
    expect(res.statusCode).toBe(200);
    const body = (await refusalsOf(c.gatewayId, owner.headers)).json<Refusals>();
    expect(body.refusals).toEqual([
      expect.objectContaining({ reason: 'NO_WEARER', serialNumber: mac, count: 1 }),
    ]);
  });
});

describe('over MQTT', () => {
  it("a native gateway's refused reading over the embedded broker is listed too", async () => {
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const broker = await startMqtt(t.ctx, quiet, { ephemeralPort: true });
    if (!broker) throw new Error('embedded broker did not start');
    const gw = (await createWearer(t, { organizationId: w.organizationId })).gateway;
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      username: gw.id,
      password: gw.credential,
      reconnectPeriod: 0,
      clientId: `${gw.id}/test`,
    });
    try {
      await client.publishAsync(
        gatewayTopics.batches(gw.id),
        JSON.stringify({ readings: [{ serialNumber: TYPO.toLowerCase(), at: minutesAgo(1) }] }),
        { qos: 1 },
      );
      const body = (await refusalsOf(gw.id, owner.headers)).json<Refusals>();
      expect(body.refusals).toEqual([
        expect.objectContaining({
          reason: 'UNKNOWN_BRACELET',
          serialNumber: TYPO,
          count: 1,
          suggestion: REGISTERED,
        }),
      ]);
    } finally {
      await client.endAsync();
      await broker.close();
    }
  });
});
