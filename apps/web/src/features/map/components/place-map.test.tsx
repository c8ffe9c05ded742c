import type { MapPerson, MapResponse, SiteListResponse, UserInfo } from '@wearable/domain';
import { mapAnswerOf } from '@wearable/domain/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import alertsEn from '../../../../public/locales/en/alerts.json';
import alertsJa from '../../../../public/locales/ja/alerts.json';
import mapEn from '../../../../public/locales/en/map.json';
import mapJa from '../../../../public/locales/ja/map.json';
import { session } from '../../../lib/session';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { PlaceMap } from './place-map';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };

const user: UserInfo = {
  name: 'わたし',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'me@example.com',
  mailVerified: true,
  role: 'ORGANIZATION_GENERAL',
  uid: 'uid-staff',
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
};

const PLAN = {
  format: 'png' as const,
  width: 400,
  height: 200,
  bytes: 1234,
  sha256: 'abc',
  uploadedAt: '2026-11-26T01:00:00.000Z',
};
const SITES: SiteListResponse = {
  sites: [
    {
      id: 'site-1',
      clientId: 'org-1',
      name: '本館',
      groupId: null,
      groupName: null,
      plan: PLAN,
      createdAt: '2026-11-26T00:00:00.000Z',
    },
  ],
  gateways: [
    {
      gatewayId: 'gw-dining',
      name: '1階 食堂',
      groupId: null,
      plan: { siteId: 'site-1', x: 0.25, y: 0.5 },
      position: null,
    },
    {
      gatewayId: 'gw-room',
      name: '2階 203号室',
      groupId: null,
      plan: { siteId: 'site-1', x: 0.75, y: 0.5 },
      position: null,
    },
  ],
};

/** The answer in words (people as the page reads them); `serve` sends it as rows. */
type MapInWords = Omit<MapResponse, 'people'> & { people: MapPerson[] };
const MAP: MapInWords = {
  generatedAt: '2026-11-26T05:10:00.000Z',
  tiles: null,
  placesOnlyDuringAlerts: false,
  groups: [{ groupId: 'g-1', name: 'さくら棟' }],
  gateways: [
    { gatewayId: 'gw-room', name: '2階 203号室', siteId: 'site-1', siteName: '本館' },
    { gatewayId: 'gw-dining', name: '1階 食堂', siteId: 'site-1', siteName: '本館' },
  ],
  people: [
    {
      wearerId: 'w-1',
      name: '佐藤 花子',
      groupId: 'g-1',
      place: { kind: 'gateway', gatewayId: 'gw-room', since: '2026-11-26T05:02:00.000Z' },
      alert: {
        alertId: 'a-1',
        type: 'SOS_CALL',
        level: 'EMERGENCY',
        openedAt: '2026-11-26T05:09:00.000Z',
      },
    },
    {
      wearerId: 'w-2',
      name: '田中 一郎',
      groupId: 'g-1',
      place: { kind: 'gateway', gatewayId: 'gw-room', since: '2026-11-26T04:00:00.000Z' },
      alert: null,
    },
    {
      wearerId: 'w-3',
      name: '鈴木 次郎',
      groupId: null,
      place: { kind: 'last-heard', gatewayId: 'gw-dining', at: '2026-11-26T03:00:00.000Z' },
      alert: null,
    },
    { wearerId: 'w-4', name: 'Ann Lee', groupId: null, place: { kind: 'unknown' }, alert: null },
  ],
};

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
});

function serve(sites: SiteListResponse = SITES, map: MapInWords = MAP) {
  return stubServer((url) => {
    if (url === '/v2/organization/org-1/map') return json(200, mapAnswerOf(map));
    if (url === '/v2/organization/org-1/sites') return json(200, sites);
    if (url === '/v2/site/site-1/plan')
      return new Response(new Blob(['png'], { type: 'image/png' }), { status: 200 });
    return json(404, { statusCode: 404, error: 'Not Found', message: 'nope', code: 'NOT_FOUND' });
  });
}

function open(lng: 'ja' | 'en') {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(user));
  session.reload();
  return renderWithApp(<PlaceMap organizationId="org-1" />, {
    lng,
    namespaces: [
      { ns: 'map', ja: mapJa, en: mapEn },
      { ns: 'alerts', ja: alertsJa, en: alertsEn },
    ],
  });
}

describe('/map', () => {
  it('shows the SOS first, in the list and as a pulsing count on the plan that opens the names', async () => {
    serve();
    await open('ja');
    const list = await screen.findByTestId('map-list', undefined, SLOW);
    const cards = within(list).getAllByTestId('map-person');
    expect(cards.map((c) => within(c).getByRole('link').textContent)).toEqual([
      '佐藤 花子',
      '田中 一郎',
      '鈴木 次郎',
      'Ann Lee',
    ]);
    const [sos, , away, unknown] = cards;
    expect(within(sos!).getByTestId('map-person-place').textContent).toBe('本館 · 2階 203号室');
    expect(within(sos!).getByTestId('map-person-alert').textContent).toMatch(/^SOS発信（.+から）$/);
    expect(within(sos!).getByRole('link').getAttribute('href')).toBe('/devices/org-1/w-1');
    expect(within(away!).getByTestId('map-person-place').textContent).toBe(
      '最終受信: 本館 · 1階 食堂',
    );
    expect(within(unknown!).getByTestId('map-person-place').textContent).toBe('場所不明');
    expect(screen.getByRole('heading', { name: '全員（4人）' })).toBeTruthy();

    // Two at room 203, one in an SOS: the marker says so and opens their names.
    const room = screen.getByRole('button', { name: '2階 203号室 2人（うち1人がSOS・緊急）' });
    expect(within(room).getByTestId('map-marker-count').textContent).toBe('2');
    expect(screen.getByRole('button', { name: '1階 食堂 0人' })).toBeTruthy();
    expect(room.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(room);
    expect(room.getAttribute('aria-expanded')).toBe('true');
    const names = screen.getByRole('region', { name: '2階 203号室にいる人' });
    expect(
      within(names)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^佐藤 花子 — .+から · SOS発信$/),
      expect.stringMatching(/^田中 一郎 — .+から$/),
    ]);
    fireEvent.click(room);
    expect(screen.queryByRole('region', { name: '2階 203号室にいる人' })).toBeNull();
  });

  it('without any plan, says so in English and still lists everyone', async () => {
    serve({ sites: [{ ...SITES.sites[0]!, plan: null }], gateways: SITES.gateways });
    await open('en');
    const list = await screen.findByTestId('map-list', undefined, SLOW);
    expect(await screen.findByTestId('map-no-plan', undefined, SLOW)).toBeTruthy();
    expect(screen.getByTestId('map-no-plan').textContent).toBe(mapEn.plan.none);
    expect(screen.getByRole('heading', { name: 'Everyone (4 people)' })).toBeTruthy();
    const [sos] = within(list).getAllByTestId('map-person');
    expect(within(sos!).getByTestId('map-person-alert').textContent).toMatch(/^SOS call since /);
    expect(screen.queryAllByTestId('map-marker')).toEqual([]);
  });

  it('shows phone positions on a Leaflet map with named, focusable markers, and on a plain grid with a notice once a tile fails', async () => {
    const walker = {
      wearerId: 'w-5',
      name: '山田 歩',
      groupId: null,
      place: {
        kind: 'position' as const,
        latitude: 35.6812,
        longitude: 139.7671,
        accuracy: 12,
        at: '2026-11-26T05:09:30.000Z',
        gatewayId: 'gw-phone',
      },
      alert: {
        alertId: 'a-5',
        type: 'DETECT_FALL_DOWN' as const,
        level: 'EMERGENCY' as const,
        openedAt: '2026-11-26T05:09:40.000Z',
      },
    };
    serve(SITES, {
      ...MAP,
      tiles: {
        url: 'https://tile.example.test/{z}/{x}/{y}.png',
        attribution: '© OpenStreetMap contributors',
      },
      gateways: [
        ...MAP.gateways,
        { gatewayId: 'gw-phone', name: 'スマートフォン', siteId: null, siteName: null },
      ],
      people: [walker, ...MAP.people],
    });
    await open('en');
    // Leaflet, in its own chunk, with the server's tiles and a marker named for the person.
    const leaflet = await screen.findByTestId('map-leaflet', undefined, SLOW);
    expect(leaflet.getAttribute('aria-label')).toBe(mapEn.outdoor.mapLabel);
    expect(screen.getByTestId('map-attribution').textContent).toBe('© OpenStreetMap contributors');
    const name = '山田 歩: Position 35.68120, 139.76710 (±12 m), in an SOS or emergency';
    const pin = await within(leaflet).findByRole('button', { name }, SLOW);
    expect(pin.getAttribute('tabindex')).toBe('0');
    expect(within(leaflet).getByRole('button', { name: mapEn.outdoor.zoomIn })).toBeTruthy();
    const tiles = leaflet.querySelectorAll<HTMLImageElement>('img.leaflet-tile');
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles[0]!.getAttribute('src')).toMatch(
      /^https:\/\/tile\.example\.test\/\d+\/\d+\/\d+\.png$/,
    );
    // Enter on the focused marker opens the name below the map.
    fireEvent.keyDown(pin, { key: 'Enter' });
    expect(within(screen.getByTestId('map-outdoor-open')).getByText('山田 歩')).toBeTruthy();
    expect(screen.queryByTestId('map-grid-notice')).toBeNull();
    fireEvent.error(tiles[0]!);
    expect(await screen.findByTestId('map-grid-notice')).toBeTruthy();
    expect(screen.getByTestId('map-grid-notice').textContent).toBe(mapEn.outdoor.tilesFailed);
    expect(screen.queryByTestId('map-leaflet')).toBeNull();
    // The same marker, on the grid.
    const outdoor = screen.getByTestId('map-outdoor');
    expect(within(outdoor).getByRole('button', { name })).toBeTruthy();
    // The list says the same, first (a fall is an emergency).
    const [card] = screen.getAllByTestId('map-person');
    expect(within(card!).getByTestId('map-person-place').textContent).toBe(
      'Position 35.68120, 139.76710 (±12 m)',
    );
  });
});
