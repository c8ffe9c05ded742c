import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActorName, type World, buildWorld } from '../../testing/world.js';
import type { WearerRecord } from '../../testing/factories.js';
import { connectSse, until } from '../../testing/sse-client.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
let base: string;

const connect = connectSse;

/** Every stream opens with a single-use ticket, as the console does. */
async function liveAs(who: ActorName) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v3/live/ticket',
    headers: w.users[who].headers,
  });
  expect(res.statusCode).toBe(200);
  return connect(`${base}/v3/live?ticket=${res.json<{ ticket: string }>().ticket}`);
}

async function send(wearer: WearerRecord, payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${wearer.gateway.id}:${wearer.gateway.credential}` },
    payload,
  });
  expect(res.statusCode).toBe(200);
}
const sos = (wearer: WearerRecord) =>
  send(wearer, {
    events: [
      { serialNumber: wearer.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
    ],
  });
const alertFor = (c: ReturnType<typeof connect>, uid: string, action = 'opened') =>
  c.events.find(
    (e) => e.event === 'alert' && e.data.action === action && e.data.alert?.wearer.uid === uid,
  );

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

describe('GET /v3/live', () => {
  it('refuses a missing or bad token or ticket with 401', async () => {
    expect((await fetch(`${base}/v3/live`)).status).toBe(401);
    expect((await fetch(`${base}/v3/live?ticket=nope`)).status).toBe(401);
    expect(
      (await fetch(`${base}/v3/live`, { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);
  });

  it('sends each alert only to the clients allowed to see it', async () => {
    const clients = {
      ownerA: await liveAs('ORGANIZATION_OWNER'),
      managerG1: await liveAs('ORGANIZATION_GROUP'),
      managerG2: await liveAs('GROUP_MANAGER_OTHER_GROUP'),
      ownerB: await liveAs('OTHER_ORG_OWNER'),
      platform: await liveAs('ALL_GENERAL'),
      personal: await liveAs('PERSONAL_LINKED'),
      stranger: await liveAs('PERSONAL_UNLINKED'),
      // The header works as well as ?ticket=.
      header: connect(`${base}/v3/live`, w.users.ORGANIZATION_GENERAL.headers),
    };
    await until(() => (Object.values(clients).every((c) => c.status() === 200) ? true : undefined));

    await sos(w.w1);
    await until(() => alertFor(clients.ownerA, w.w1.uid));
    // B's SOS comes after A's: once B's owner has it, every client has had A's chance.
    await sos(w.wB);
    await until(() => alertFor(clients.ownerB, w.wB.uid));
    await until(() => alertFor(clients.platform, w.wB.uid));

    const got = (c: ReturnType<typeof connect>) => [
      !!alertFor(c, w.w1.uid),
      !!alertFor(c, w.wB.uid),
    ];
    expect(got(clients.ownerA)).toEqual([true, false]);
    expect(got(clients.header)).toEqual([true, false]);
    expect(got(clients.managerG1)).toEqual([true, false]);
    expect(got(clients.managerG2)).toEqual([false, false]);
    expect(got(clients.ownerB)).toEqual([false, true]);
    expect(got(clients.platform)).toEqual([true, true]);
    expect(got(clients.personal)).toEqual([true, false]);
    expect(got(clients.stranger)).toEqual([false, false]);

    // Confirmation reaches the same audience.
    const alertId = alertFor(clients.ownerA, w.w1.uid)?.data.alert?.id;
    await t.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: { alertId },
    });
    await until(() => alertFor(clients.personal, w.w1.uid, 'confirmed'));
    for (const c of Object.values(clients)) c.close();
  });

  it('sends summary changes of visible wearers', async () => {
    const ownerA = await liveAs('ORGANIZATION_OWNER');
    const ownerB = await liveAs('OTHER_ORG_OWNER');
    await until(() => (ownerA.status() === 200 && ownerB.status() === 200 ? true : undefined));
    const reading = (x: WearerRecord, hr: number) => ({
      readings: [
        {
          serialNumber: x.bracelet.serialNumber,
          at: new Date().toISOString(),
          heartRate: hr,
          worn: true,
        },
      ],
    });
    await send(w.w2, reading(w.w2, 77));
    await send(w.wB, reading(w.wB, 66));
    const a = await until(() =>
      ownerA.events.find((e) => e.event === 'summary' && e.data.uid === w.w2.uid),
    );
    expect(a.data.heartRate).toBe(77);
    await until(() => ownerB.events.find((e) => e.event === 'summary' && e.data.uid === w.wB.uid));
    expect(ownerA.events.some((e) => e.data.uid === w.wB.uid)).toBe(false);
    expect(ownerB.events.some((e) => e.data.uid === w.w2.uid)).toBe(false);
    ownerA.close();
    ownerB.close();
  });

  it('ends open streams when the app closes', async () => {
    const client = await liveAs('ORGANIZATION_OWNER');
    await until(() => (client.status() === 200 ? true : undefined));
    await t.app.close();
    await client.ended;
    expect(client.status()).toBe(200);
  });
});
