import { describe, expect, it } from 'vitest';
import { placeText, zoneName } from '@wearable/domain';
import type { SightingRow } from './places.repository.js';
import { placeFromRows } from './places.service.js';

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
