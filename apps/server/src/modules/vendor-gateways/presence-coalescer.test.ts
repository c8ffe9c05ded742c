import type { BraceletReading } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { PresenceCoalescer, type PresenceGateway } from './presence-coalescer.js';

// The coalescer alone, on a hand-moved clock, storing into a list: the story test
// (presence-coalescing.story.test.ts) runs it through the real app and database.
const gatewayA: PresenceGateway = { id: 'gw-a', organizationId: 'org' };
const gatewayB: PresenceGateway = { id: 'gw-b', organizationId: 'org' };
const T = Date.parse('2026-11-26T03:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const heard = (serialNumber: string, ms: number, rssi?: number): BraceletReading => ({
  serialNumber,
  at: iso(ms),
  ...(rssi === undefined ? {} : { rssi }),
});

function setup(intervalMs = 10_000, max?: number) {
  let now = T;
  const stored: { gatewayId: string; readings: BraceletReading[] }[] = [];
  const coalescer = new PresenceCoalescer(intervalMs, () => now, max);
  coalescer.start(
    async (gateway, readings) => {
      stored.push({ gatewayId: gateway.id, readings });
    },
    60_000, // the test sweeps by hand
    () => undefined,
  );
  return {
    coalescer,
    stored,
    at(ms: number) {
      now = ms;
    },
    admit(gateway: PresenceGateway, readings: BraceletReading[], ms: number) {
      now = ms;
      return coalescer.admit(gateway, readings);
    },
  };
}

describe('PresenceCoalescer', () => {
  it('lets the first sighting of a tag pass at once and folds the later ones of its window', async () => {
    const c = setup();
    expect(c.admit(gatewayA, [heard('BR-1', T, -70)], T)).toEqual([heard('BR-1', T, -70)]);
    expect(c.admit(gatewayA, [heard('BR-1', T + 1000, -80)], T + 1000)).toEqual([]);
    expect(c.admit(gatewayA, [heard('BR-1', T + 2000, -55)], T + 2000)).toEqual([]);
    expect(c.admit(gatewayA, [heard('BR-1', T + 3000, -65)], T + 3000)).toEqual([]);
    // Before the window's end nothing is stored.
    c.at(T + 9_999);
    await c.coalescer.sweep();
    expect(c.stored).toEqual([]);
    // At its end: one reading, the latest time and the strongest signal.
    c.at(T + 10_000);
    await c.coalescer.sweep();
    expect(c.stored).toEqual([{ gatewayId: 'gw-a', readings: [heard('BR-1', T + 3000, -55)] }]);
    await c.coalescer.close();
  });

  it('stores one reading per window while a tag is heard, and forgets it after a silent window', async () => {
    const c = setup();
    c.admit(gatewayA, [heard('BR-1', T)], T);
    // Heard every second for 30 s (the sweep runs every second, here just before each sighting).
    for (let s = 1; s < 30; s++) {
      c.at(T + s * 1000);
      await c.coalescer.sweep();
      const at = T + s * 1000 + 600;
      expect(c.admit(gatewayA, [heard('BR-1', at)], at)).toEqual([]);
    }
    // The first passed at once; then one reading per 10 s window, its last sighting.
    expect(c.stored.map((s) => s.readings[0]?.at)).toEqual([iso(T + 9600), iso(T + 19_600)]);
    // Silent from T + 29.6 s: the third window stores its last sighting, the fourth ends empty
    // and the tag is forgotten.
    c.at(T + 30_000);
    await c.coalescer.sweep();
    expect(c.stored.map((s) => s.readings[0]?.at)).toEqual([
      iso(T + 9600),
      iso(T + 19_600),
      iso(T + 29_600),
    ]);
    c.at(T + 40_000);
    await c.coalescer.sweep();
    expect(c.coalescer.size).toBe(0);
    // Back after the silence: its first sighting passes at once (DISCONNECTION closes now).
    expect(c.admit(gatewayA, [heard('BR-1', T + 45_000)], T + 45_000)).toEqual([
      heard('BR-1', T + 45_000),
    ]);
    await c.coalescer.close();
  });

  it('a sighting after its window ended (no sweep yet) passes at once and begins a new window', () => {
    const c = setup();
    c.admit(gatewayA, [heard('BR-1', T)], T);
    expect(c.admit(gatewayA, [heard('BR-1', T + 4000, -50)], T + 4000)).toEqual([]);
    expect(c.admit(gatewayA, [heard('BR-1', T + 12_000, -90)], T + 12_000)).toEqual([
      heard('BR-1', T + 12_000, -90),
    ]);
    expect(c.admit(gatewayA, [heard('BR-1', T + 13_000)], T + 13_000)).toEqual([]);
  });

  it('keeps each gateway’s own window and signal, so the place fold still sees the strongest gateway', async () => {
    const c = setup();
    c.admit(gatewayA, [heard('BR-1', T, -85)], T);
    c.admit(gatewayB, [heard('BR-1', T + 100, -85)], T + 100);
    c.admit(gatewayA, [heard('BR-1', T + 1000, -80)], T + 1000);
    c.admit(gatewayB, [heard('BR-1', T + 1100, -48)], T + 1100);
    c.at(T + 10_200);
    await c.coalescer.sweep();
    expect(c.stored).toEqual([
      { gatewayId: 'gw-a', readings: [heard('BR-1', T + 1000, -80)] },
      { gatewayId: 'gw-b', readings: [heard('BR-1', T + 1100, -48)] },
    ]);
  });

  it('stores every tag of a gateway whose window ended in one batch', async () => {
    const c = setup();
    const tags = Array.from({ length: 50 }, (_, i) => `BR-${i}`);
    expect(
      c.admit(
        gatewayA,
        tags.map((t) => heard(t, T)),
        T,
      ),
    ).toHaveLength(50);
    expect(
      c.admit(
        gatewayA,
        tags.map((t) => heard(t, T + 1000)),
        T + 1000,
      ),
    ).toEqual([]);
    c.at(T + 10_000);
    await c.coalescer.sweep();
    expect(c.stored).toHaveLength(1);
    expect(c.stored[0]?.readings).toHaveLength(50);
  });

  it('a bracelet that changed (linked, unlinked) loses its windows: its next sighting passes at once', () => {
    const c = setup();
    c.admit(gatewayA, [heard('BR-1', T), heard('BR-2', T)], T);
    c.admit(gatewayB, [heard('BR-1', T)], T);
    c.coalescer.forget('BR-1');
    expect(c.coalescer.size).toBe(1);
    expect(c.admit(gatewayA, [heard('BR-1', T + 1000), heard('BR-2', T + 1000)], T + 1000)).toEqual(
      [heard('BR-1', T + 1000)],
    );
  });

  it('holds at most `max` windows: beyond, a flood of tags passes uncoalesced and memory stays bounded', () => {
    const c = setup(10_000, 100);
    const flood = Array.from({ length: 1000 }, (_, i) => heard(`FLOOD-${i}`, T));
    expect(c.admit(gatewayA, flood, T)).toHaveLength(1000);
    expect(c.coalescer.size).toBe(100);
    // The 100 with a window are folded on their next sighting, the others still pass.
    const again = Array.from({ length: 1000 }, (_, i) => heard(`FLOOD-${i}`, T + 1000));
    expect(c.admit(gatewayA, again, T + 1000)).toHaveLength(900);
    expect(c.coalescer.size).toBe(100);
  });

  it('stores what is folded when it closes (the server stops), and nothing twice', async () => {
    const c = setup();
    c.admit(gatewayA, [heard('BR-1', T), heard('BR-2', T)], T);
    c.admit(gatewayA, [heard('BR-1', T + 2000, -60)], T + 2000);
    await c.coalescer.close();
    expect(c.stored).toEqual([{ gatewayId: 'gw-a', readings: [heard('BR-1', T + 2000, -60)] }]);
    expect(c.coalescer.size).toBe(0);
  });

  it('stores a gateway with thousands of ended windows in batches of at most 1,000 readings', async () => {
    const c = setup();
    const tags = Array.from({ length: 2500 }, (_, i) => `BR-${i}`);
    c.admit(
      gatewayA,
      tags.map((t) => heard(t, T)),
      T,
    );
    c.admit(
      gatewayA,
      tags.map((t) => heard(t, T + 1000)),
      T + 1000,
    );
    c.at(T + 10_000);
    await c.coalescer.sweep();
    expect(c.stored.map((s) => s.readings.length)).toEqual([1000, 1000, 500]);
  });

  it('after close, presence passes at once (a request still in flight is not folded into a window nobody stores)', async () => {
    const c = setup();
    await c.coalescer.close();
    expect(c.admit(gatewayA, [heard('BR-1', T)], T)).toHaveLength(1);
    expect(c.admit(gatewayA, [heard('BR-1', T + 1000)], T + 1000)).toHaveLength(1);
  });

  it('with an interval of 0 (or before it is started) lets everything pass', () => {
    const off = new PresenceCoalescer(0, () => T);
    off.start(
      async () => undefined,
      1000,
      () => undefined,
    );
    const both = [heard('BR-1', T), heard('BR-1', T + 1)];
    expect(off.admit(gatewayA, both)).toEqual(both);
    const unstarted = new PresenceCoalescer(10_000, () => T);
    expect(unstarted.admit(gatewayA, both.slice(0, 1))).toHaveLength(1);
    expect(unstarted.admit(gatewayA, both.slice(1))).toHaveLength(1);
    expect(unstarted.size).toBe(0);
  });
});
