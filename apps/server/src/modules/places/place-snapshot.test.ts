import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMapPeople, type MapResponse } from '@wearable/domain';
import { ACTOR_NAMES, SEES, type World, buildWorld } from '../../testing/world.js';
import type { WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { postBatch } from '../../testing/gateway-batch.js';

/**
 * /map's rows from memory (place-snapshot.ts): every caller sees exactly the wearers the SQL rule
 * lets them see; a batch, a rename and a move reach the next answer by reading only the wearers
 * they name; a missed cross-server message reads the organisation whole.
 */
let t: TestApp;
let w: World;

const post = (wearer: WearerRecord, payload: object) => postBatch(t, wearer.gateway, payload);
const reading = (wearer: WearerRecord) => ({
  readings: [
    {
      serialNumber: wearer.bracelet.serialNumber,
      at: new Date().toISOString(),
      heartRate: 70,
      worn: true,
      rssi: -60,
    },
  ],
});

async function map(headers: Record<string, string>, organizationId = w.orgA) {
  const res = await t.app.inject({ url: `/v2/organization/${organizationId}/map`, headers });
  return {
    status: res.statusCode,
    body: res.statusCode === 200 ? res.json<MapResponse>() : null,
  };
}
const peopleOf = (body: MapResponse | null) => (body ? decodeMapPeople(body) : []);

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t?.close());

describe('the map from memory', () => {
  it('shows every caller exactly the wearers they may see, in either organisation', async () => {
    for (const who of ACTOR_NAMES) {
      for (const [org, ids] of [
        [w.orgA, [w.w1.uid, w.w2.uid]],
        [w.orgB, [w.wB.uid]],
      ] as const) {
        const { status, body } = await map(w.users[who].headers, org);
        const seen = peopleOf(body)
          .map((p) => p.wearerId)
          .sort();
        const allowed = SEES[who]
          .map((k) => w[k].uid)
          .filter((id) => (ids as readonly string[]).includes(id))
          .sort();
        // A caller who may not read the organisation's places is refused; one who may sees their wearers.
        if (status === 200) expect(seen, `${who} ${org}`).toEqual(allowed);
        else expect([403, 404], `${who} ${org}`).toContain(status);
      }
    }
    // Not vacuous: the owner and the group manager were answered.
    expect(peopleOf((await map(w.users.ORGANIZATION_OWNER.headers)).body)).toHaveLength(2);
    expect(
      peopleOf((await map(w.users.ORGANIZATION_GROUP.headers)).body).map((p) => p.wearerId),
    ).toEqual([w.w1.uid]);
  });

  it('has a batch’s place in the next answer, reading only that wearer', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    await map(owner);
    const { wholeReads, patches } = t.ctx.placeSnapshots.counts;
    expect((await post(w.w2, reading(w.w2))).json()).toMatchObject({ accepted: 1 });
    const person = peopleOf((await map(owner)).body).find((p) => p.wearerId === w.w2.uid);
    expect(person?.place).toMatchObject({ kind: 'gateway', gatewayId: w.w2.gateway.id });
    expect(t.ctx.placeSnapshots.counts.wholeReads).toBe(wholeReads);
    expect(t.ctx.placeSnapshots.counts.patches).toBe(patches + 1);
  });

  it('has a rename and a move out of the organisation announced before the request', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    await map(owner);
    // A move names both organisations (each map reads the wearer again).
    const announce = (wearer: WearerRecord) => {
      for (const organizationId of [w.orgA, w.orgB])
        t.ctx.bus.emit('wearer.updated', {
          organizationId,
          groupId: wearer.groupId,
          wearerId: wearer.uid,
        });
    };
    await t.db.query('UPDATE users SET name = $2 WHERE id = $1', [w.w1.uid, 'renamed on the map']);
    announce(w.w1);
    expect(peopleOf((await map(owner)).body).find((p) => p.wearerId === w.w1.uid)?.name).toBe(
      'renamed on the map',
    );
    // Moved to the other organisation (as by SQL): gone from this one's map, and on the other's.
    await t.db.query('UPDATE users SET organization_id = $2 WHERE id = $1', [w.w2.uid, w.orgB]);
    try {
      announce(w.w2);
      expect(peopleOf((await map(owner)).body).map((p) => p.wearerId)).toEqual([w.w1.uid]);
      expect(
        peopleOf((await map(w.users.OTHER_ORG_OWNER.headers, w.orgB)).body)
          .map((p) => p.wearerId)
          .sort(),
      ).toEqual([w.w2.uid, w.wB.uid].sort());
    } finally {
      await t.db.query('UPDATE users SET organization_id = $2 WHERE id = $1', [w.w2.uid, w.orgA]);
      announce(w.w2);
    }
    expect(peopleOf((await map(owner)).body)).toHaveLength(2);
  });

  it('reads the organisation whole after the cross-server bus missed events', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    await map(owner);
    // A change no event named (another server's, while the bus was down).
    await t.db.query('UPDATE users SET name = $2 WHERE id = $1', [w.w1.uid, 'named while away']);
    const wholeReads = t.ctx.placeSnapshots.counts.wholeReads;
    t.ctx.placeSnapshots.markAllDirty();
    expect(peopleOf((await map(owner)).body).find((p) => p.wearerId === w.w1.uid)?.name).toBe(
      'named while away',
    );
    expect(t.ctx.placeSnapshots.counts.wholeReads).toBe(wholeReads + 1);
  });

  it('answers requests arriving during a read with the same rows, read once', async () => {
    const owner = w.users.ORGANIZATION_OWNER.headers;
    t.ctx.placeSnapshots.markAllDirty();
    const wholeReads = t.ctx.placeSnapshots.counts.wholeReads;
    const answers = await Promise.all([1, 2, 3].map(() => map(owner)));
    for (const a of answers) expect(peopleOf(a.body)).toHaveLength(2);
    expect(t.ctx.placeSnapshots.counts.wholeReads).toBe(wholeReads + 1);
  });
});

describe('the map from memory, with the rollup flush a minute away', () => {
  let late: TestApp;
  let lw: World;
  beforeAll(async () => {
    late = await createTestApp({ rollupFlushMs: 60_000 });
    lw = await buildWorld(late);
  });
  afterAll(() => late?.close());

  it('has a batch’s place in the next answer on its own server, before the flush announces it', async () => {
    const owner = lw.users.ORGANIZATION_OWNER.headers;
    const ask = async () =>
      decodeMapPeople(
        (
          await late.app.inject({ url: `/v2/organization/${lw.orgA}/map`, headers: owner })
        ).json<MapResponse>(),
      ).find((p) => p.wearerId === lw.w1.uid)?.place;
    expect(await ask()).toMatchObject({ kind: 'unknown' });
    const res = await postBatch(late, lw.w1.gateway, reading(lw.w1));
    expect(res.json()).toMatchObject({ accepted: 1 });
    expect(await ask()).toMatchObject({ kind: 'gateway', gatewayId: lw.w1.gateway.id });
  });
});
