import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { BUS_EVENTS } from '../engine/events.js';
import { connectSse, until } from '../testing/sse-client.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { buildWorld, type World } from '../testing/world.js';

// Two servers need one PostgreSQL: PGlite is one process, so this runs in server-postgres only.
const postgres = !!process.env.TEST_DATABASE_URL;

describe.runIf(postgres)('two servers on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let w: World;
  let baseB: string;

  beforeAll(async () => {
    const databaseUrl = inject('testDatabaseUrl');
    a = await createTestApp({ databaseUrl });
    b = await createTestApp({ databaseUrl });
    w = await buildWorld(a);
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    await Promise.all([a.ctx.cluster.listening(), b.ctx.cluster.listening()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const sendThroughA = (gateway: { id: string; credential: string }, serialNumber: string, type = 'SOS') =>
    a.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
      payload: { events: [{ serialNumber, type, at: new Date().toISOString() }] },
    });

  it("shows an SOS ingested by server A on server B's live stream within 1 s", async () => {
    const ticket = await b.app.inject({ method: 'POST', url: '/v3/live/ticket', headers: w.users.ORGANIZATION_OWNER.headers });
    expect(ticket.statusCode).toBe(200);
    const live = connectSse(`${baseB}/v3/live?ticket=${ticket.json<{ ticket: string }>().ticket}`);
    await until(() => (live.status() === 200 ? true : undefined));

    const sent = Date.now();
    expect((await sendThroughA(w.w1.gateway, w.w1.bracelet.serialNumber)).statusCode).toBe(200);
    const frame = await until(() =>
      live.events.find((e) => e.event === 'alert' && e.data.action === 'opened' && e.data.alert?.wearer.uid === w.w1.uid),
    );
    expect(frame).toBeDefined();
    expect(Date.now() - sent).toBeLessThan(1_000);
    // Confirmed on A: B's console sees it too.
    const confirmed = await a.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: { alertId: frame.data.alert?.id },
    });
    expect(confirmed.statusCode).toBe(200);
    await until(() =>
      live.events.find((e) => e.event === 'alert' && e.data.action === 'confirmed' && e.data.alert?.wearer.uid === w.w1.uid),
    );
    live.close();
  });

  it("carries A's wearer changes to B's bus (what marks B's summary snapshots dirty), never back to A", async () => {
    const onB: string[] = [];
    const onA: string[] = [];
    const seenB = (e: { wearerId: string }) => onB.push(e.wearerId);
    const seenA = (e: { wearerId: string }) => onA.push(e.wearerId);
    b.ctx.bus.on(BUS_EVENTS.wearerUpdated, seenB);
    a.ctx.bus.on(BUS_EVENTS.wearerUpdated, seenA);
    a.ctx.bus.emit(BUS_EVENTS.wearerUpdated, { organizationId: w.w2.organizationId, groupId: w.w2.groupId, wearerId: w.w2.uid });
    await until(() => (onB.includes(w.w2.uid) ? true : undefined), 2_000);
    // A round trip through PostgreSQL later, A still has its own event once.
    b.ctx.bus.emit(BUS_EVENTS.wearerUpdated, { organizationId: w.w1.organizationId, groupId: w.w1.groupId, wearerId: w.w1.uid });
    await until(() => (onA.includes(w.w1.uid) ? true : undefined), 2_000);
    expect(onA.filter((id) => id === w.w2.uid)).toHaveLength(1);
    expect(onB.filter((id) => id === w.w2.uid)).toHaveLength(1);
    b.ctx.bus.off(BUS_EVENTS.wearerUpdated, seenB);
    a.ctx.bus.off(BUS_EVENTS.wearerUpdated, seenA);
  });

  it('refuses the old credential on B as soon as A rotated it', async () => {
    const gateway = w.wB.gateway;
    const sendThroughB = (credential: string) =>
      b.app.inject({
        method: 'POST',
        url: '/gateway/v1/batches',
        headers: { authorization: `Gateway ${gateway.id}:${credential}` },
        payload: { events: [{ serialNumber: w.wB.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() }] },
      });
    // B has the credential cached (valid for 30 s without the cross-server event).
    expect((await sendThroughB(gateway.credential)).statusCode).toBe(200);
    const rotated = await a.app.inject({
      method: 'POST',
      url: `/v2/gateway/${gateway.id}/credential`,
      headers: w.users.OTHER_ORG_OWNER.headers,
    });
    expect(rotated.statusCode).toBe(200);
    await until(() => (b.ctx.ingestion.gateways.has(gateway.id) ? undefined : true), 1_000);
    expect((await sendThroughB(gateway.credential)).statusCode).toBe(401);
  });

  it("splits a burst of wearer changes under PostgreSQL's 8,000-byte NOTIFY limit", async () => {
    const seen = new Set<string>();
    const onWearer = (e: { wearerId: string }) => seen.add(e.wearerId);
    a.ctx.bus.on(BUS_EVENTS.wearerUpdated, onWearer);
    const ids = Array.from({ length: 500 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const wearerId of ids) {
      b.ctx.bus.emit(BUS_EVENTS.wearerUpdated, { organizationId: w.w1.organizationId, groupId: w.w1.groupId, wearerId });
    }
    await until(() => (ids.every((id) => seen.has(id)) ? true : undefined), 3_000);
    a.ctx.bus.off(BUS_EVENTS.wearerUpdated, onWearer);
  });

  it('lets exactly one server run the timer jobs, and the other take over when it stops', async () => {
    expect([a.ctx.cluster.leads(), b.ctx.cluster.leads()].filter(Boolean)).toHaveLength(1);
    const leader = a.ctx.cluster.leads() ? a : b;
    const follower = leader === a ? b : a;
    await leader.ctx.cluster.close();
    await until(() => (follower.ctx.cluster.leads() ? true : undefined), 10_000);
    expect(leader.ctx.cluster.leads()).toBe(false);
  });
});
