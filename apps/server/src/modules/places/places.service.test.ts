import { describe, expect, it } from 'vitest';
import type { SightingRow } from './places.repository.js';
import { placeFromRows } from './places.service.js';

const NOW = Date.parse('2026-11-26T05:00:00Z');
const ago = (min: number) => new Date(NOW - min * 60_000);
const sighting = (gateway: string, min: number, rssi: number | null): SightingRow => ({
  kind: 'sighting',
  gateway_id: gateway,
  gateway_name: `name of ${gateway}`,
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
});
