import { describe, expect, it } from 'vitest';
import { NO_PLACE, type PlaceState, placeOf, placeStep, type Sighting } from './place.js';

const MIN = 60_000;
const T0 = Date.parse('2026-07-01T12:00:00Z');
const at = (minutes: number) => T0 + minutes * MIN;
const fold = (sightings: Sighting[], state: PlaceState = NO_PLACE) =>
  sightings.reduce((s, x) => placeStep(JSON.parse(JSON.stringify(s)) as PlaceState, x), state);
const phone = (minutesAgo: number, now = at(10)) => ({
  latitude: 35.68,
  longitude: 139.76,
  accuracy: 12,
  at: now - minutesAgo * MIN,
  gatewayId: 'phone-1',
});

describe('where a person is', () => {
  it('nothing heard: unknown, said plainly', () => {
    expect(placeOf(NO_PLACE, null, at(0))).toEqual({ kind: 'unknown' });
  });

  it('a fresh phone position comes first, with its accuracy; a stale one does not', () => {
    const state = fold([{ gatewayId: 'room-a', at: at(9.5), rssi: -60 }]);
    expect(placeOf(state, phone(1), at(10))).toMatchObject({
      kind: 'position',
      latitude: 35.68,
      accuracy: 12,
    });
    // 5 minutes old: the gateway that hears the bracelet now says more.
    expect(placeOf(state, phone(5), at(10))).toMatchObject({
      kind: 'gateway',
      gatewayId: 'room-a',
    });
  });

  it('between two rooms with signals that cross back and forth by a few dB: no flicker', () => {
    const sightings: Sighting[] = [];
    for (let i = 0; i < 20; i++) {
      // room-a slightly stronger on even readings, room-b on odd ones, never by 6 dB.
      sightings.push({ gatewayId: 'room-a', at: at(i), rssi: i % 2 ? -70 : -66 });
      sightings.push({ gatewayId: 'room-b', at: at(i + 0.5), rssi: i % 2 ? -65 : -69 });
    }
    let state = NO_PLACE;
    const places = new Set<string>();
    for (const s of sightings) {
      state = placeStep(state, s);
      const p = placeOf(state, null, s.at);
      if (p.kind === 'gateway') places.add(p.gatewayId);
    }
    expect([...places]).toEqual(['room-a']);
  });

  it('walking from one room to the next: the place moves once the new room is clearly stronger', () => {
    const sightings: Sighting[] = [];
    for (let i = 0; i <= 10; i++) {
      sightings.push({ gatewayId: 'room-a', at: at(i), rssi: -55 - 4 * i });
      sightings.push({ gatewayId: 'room-b', at: at(i + 0.5), rssi: -95 + 4 * i });
    }
    const state = fold(sightings);
    expect(placeOf(state, null, at(10.5))).toMatchObject({ kind: 'gateway', gatewayId: 'room-b' });
    // It moved after the signals crossed (minute 5), not at the first stronger reading.
    expect(state.since).toBeGreaterThan(at(5.5));
  });

  it('without signal strengths, the gateway of the last reading', () => {
    const state = fold([
      { gatewayId: 'room-a', at: at(0), rssi: null },
      { gatewayId: 'room-b', at: at(1), rssi: null },
    ]);
    expect(placeOf(state, null, at(1.5))).toEqual({
      kind: 'gateway',
      gatewayId: 'room-b',
      since: at(1),
      rssi: null,
    });
  });

  it('heard by nobody for a while: last heard at the gateway, with the time', () => {
    const state = fold([
      { gatewayId: 'room-a', at: at(0), rssi: -60 },
      { gatewayId: 'gate', at: at(3), rssi: -80 },
    ]);
    expect(placeOf(state, null, at(30))).toEqual({
      kind: 'last-heard',
      gatewayId: 'gate',
      at: at(3),
    });
  });

  it('a late sighting does not move the place back, and the state stays small', () => {
    let state = fold([{ gatewayId: 'room-a', at: at(5), rssi: -60 }]);
    state = placeStep(state, { gatewayId: 'room-a', at: at(1), rssi: -20 });
    expect(state.heard[0]?.rssi).toBe(-60);
    for (let i = 0; i < 50; i++)
      state = placeStep(state, { gatewayId: `g${i}`, at: at(6 + i), rssi: null });
    expect(state.heard.length).toBeLessThanOrEqual(4);
  });

  it('a gateway heard again gives the same state as re-sorting everything it remembers', () => {
    // The general path, forced: a gateway heard before anything else (never recent, never the
    // place) is put first, so the one heard last is not first and the list is filtered and
    // sorted again (it sorts last, and is cut off or taken out of the answer).
    const never = { gatewayId: 'never', rssi: null, lastAt: Number.MIN_SAFE_INTEGER };
    const resorted = (state: PlaceState, s: Sighting): PlaceState => {
      // A sighting older than what its gateway said is ignored: the state stays as it was.
      const said = state.heard.find((h) => h.gatewayId === s.gatewayId);
      if (said && s.at < said.lastAt) return state;
      const next = placeStep({ ...state, heard: [never, ...state.heard] }, s);
      return {
        ...next,
        heard: next.heard.filter((h) => h !== never),
      };
    };
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    let fast = NO_PLACE;
    let slow = NO_PLACE;
    let t = at(0);
    for (let i = 0; i < 2000; i++) {
      // Mostly the same gateway again, as a gateway's batches are; sometimes another of six.
      const gatewayId =
        random() < 0.7 ? (fast.heard[0]?.gatewayId ?? 'g0') : `g${Math.floor(random() * 6)}`;
      t += Math.floor(random() * 40_000) - 5_000;
      const s = { gatewayId, at: t, rssi: random() < 0.2 ? null : -50 - Math.floor(random() * 40) };
      fast = placeStep(fast, s);
      slow = resorted(slow, s);
      expect(fast).toEqual(slow);
    }
  });
});
