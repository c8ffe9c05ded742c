import { describe, expect, it } from 'vitest';
import { placeText, zoneName } from '@wearable/domain';
import type { SightingRow } from './places.repository.js';
import { foldBatchPlaces, onlyTimesMoved, placeFromRows } from './places.service.js';

const NOW = Date.parse('2026-11-26T05:00:00Z');
const ago = (min: number) => new Date(NOW - min * 60_000);
const sighting = (gateway: string, min: number, rssi: number | null): SightingRow => ({
  kind: 'sighting',
  gateway_id: gateway,
  gateway_name: `name of ${gateway}`,
  site_id: null,
  site_name: null,
  at: ago(min),
  rssi,
  latitude: null,
  longitude: null,
  accuracy: null,
});
const position = (min: number): SightingRow => ({
  kind: 'position',
  gateway_id: 'phone',
  gateway_name: null,
  site_id: null,
  site_name: null,
  at: ago(min).toISOString(),
  rssi: null,
  latitude: 35.1,
  longitude: 139.2,
  accuracy: 20,
});

/** The rows the opening's query returns, in any order, folded into the stored snapshot. */
describe('the place an alert stores', () => {
  it('nothing stored: unknown', () => {
    expect(placeFromRows([], NOW)).toEqual({ kind: 'unknown' });
  });

  it('rows in any order are folded oldest first: the clearly stronger gateway, with its name', () => {
    const rows = [sighting('b', 1, -50), sighting('a', 3, -60), sighting('b', 2, -50)];
    expect(placeFromRows(rows, NOW)).toMatchObject({
      kind: 'gateway',
      gatewayId: 'b',
      gatewayName: 'name of b',
    });
  });

  it('only an old sighting: last heard there, at its time', () => {
    expect(placeFromRows([sighting('a', 45, null)], NOW)).toEqual({
      kind: 'last-heard',
      gatewayId: 'a',
      gatewayName: 'name of a',
      at: ago(45).toISOString(),
      siteId: null,
      siteName: null,
    });
  });

  it('a fresh phone position wins; a stale one leaves the gateway', () => {
    expect(placeFromRows([sighting('a', 1, -60), position(1)], NOW)).toMatchObject({
      kind: 'position',
      latitude: 35.1,
      accuracy: 20,
      gatewayName: null,
    });
    expect(placeFromRows([sighting('a', 1, -60), position(30)], NOW)).toMatchObject({
      kind: 'gateway',
      gatewayId: 'a',
    });
  });

  it('a gateway placed on a site: the zone names the site, then the gateway', () => {
    const onSite = { ...sighting('a', 1, -60), site_id: 'site-1', site_name: 'Main building' };
    const place = placeFromRows([onSite], NOW);
    expect(place).toMatchObject({
      kind: 'gateway',
      gatewayName: 'name of a',
      siteId: 'site-1',
      siteName: 'Main building',
    });
    expect(placeText(place, 'en')).toBe('Place: Main building · name of a');
    expect(placeText(place, 'ja')).toBe('場所: Main building · name of a');
    // A gateway on no site (or an alert stored before sites): the gateway's name alone.
    expect(placeText(placeFromRows([sighting('a', 1, -60)], NOW), 'en')).toBe('Place: name of a');
    expect(zoneName({ gatewayId: 'gw-1', gatewayName: null })).toBe('gw-1');
  });
});

describe('the place state a batch writes', () => {
  const gatewayBatch = (gatewayId: string, at: number, rssi: number | null = null) => ({
    organizationId: 'o1',
    gatewayId,
    sightings: [{ wearerId: 'w1', at: new Date(at), rssi }],
    positions: [],
  });
  const stored = (state: unknown) => new Map([['w1', { state, position: null }]]);

  it('is written when new, when the place changes, when a time lags 15 s or more, or a signal changes', () => {
    const first = foldBatchPlaces(new Map(), gatewayBatch('g1', NOW));
    expect(first.save).not.toBeNull();
    const state = first.folded.get('w1')?.state;
    // Five seconds later at the same gateway, without a signal: only the time moved.
    const soon = foldBatchPlaces(stored(state), gatewayBatch('g1', NOW + 5_000));
    expect(soon.save).toBeNull();
    // The folded state still has the new time: an alert opening in this batch takes it.
    expect(soon.folded.get('w1')?.state.heard[0]?.lastAt).toBe(NOW + 5_000);
    // Measured from what is stored: 15 s after it, it is written.
    expect(foldBatchPlaces(stored(state), gatewayBatch('g1', NOW + 15_000)).save).not.toBeNull();
    // Another gateway: written at once.
    expect(foldBatchPlaces(stored(state), gatewayBatch('g2', NOW + 1_000)).save).not.toBeNull();
    // A signal strength (smoothed from here on): written.
    expect(
      foldBatchPlaces(stored(state), gatewayBatch('g1', NOW + 1_000, -60)).save,
    ).not.toBeNull();
  });

  it('compares place, gateways, signals and times', () => {
    const a = { current: 'g1', since: 1, heard: [{ gatewayId: 'g1', rssi: null, lastAt: 10 }] };
    expect(
      onlyTimesMoved(a, { ...a, heard: [{ gatewayId: 'g1', rssi: null, lastAt: 14_000 }] }),
    ).toBe(true);
    expect(onlyTimesMoved(a, { ...a, since: 2 })).toBe(false);
    expect(onlyTimesMoved(a, { ...a, heard: [{ gatewayId: 'g1', rssi: -70, lastAt: 10 }] })).toBe(
      false,
    );
    expect(
      onlyTimesMoved(a, {
        ...a,
        heard: [...a.heard, { gatewayId: 'g2', rssi: null, lastAt: 5 }],
      }),
    ).toBe(false);
  });
});
