import type { UserInfo, WearerTrail as Trail } from '@wearable/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import mapEn from '../../../../public/locales/en/map.json';
import mapJa from '../../../../public/locales/ja/map.json';
import { session } from '../../../lib/session';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { WearerTrail } from './wearer-trail';

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

const TRAIL: Trail = {
  from: '2026-11-25T17:10:00.000Z',
  to: '2026-11-26T05:10:00.000Z',
  withheld: false,
  tiles: {
    url: 'https://tile.example.test/{z}/{x}/{y}.png',
    attribution: '© OpenStreetMap contributors',
  },
  positions: [
    { latitude: 35.68, longitude: 139.767, accuracy: 12, at: '2026-11-26T04:40:00.000Z' },
    { latitude: 35.681, longitude: 139.767, accuracy: 12, at: '2026-11-26T04:50:00.000Z' },
  ],
  stays: [
    {
      gatewayId: 'gw-gate',
      name: '正門',
      siteName: '本館',
      from: '2026-11-26T02:10:00.000Z',
      to: '2026-11-26T02:25:00.000Z',
    },
  ],
};

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
});

function open(trail: Trail, lng: 'ja' | 'en') {
  stubServer((url) =>
    url.startsWith('/v2/wearer/w-1/trail')
      ? json(200, trail)
      : json(404, { statusCode: 404, error: 'Not Found', message: 'nope', code: 'NOT_FOUND' }),
  );
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(user));
  session.reload();
  return renderWithApp(<WearerTrail uid="w-1" />, {
    lng,
    namespaces: [{ ns: 'map', ja: mapJa, en: mapEn }],
  });
}

describe("the wearer page's trail", () => {
  it('says one position with its one time, in Japanese', async () => {
    const one = { ...TRAIL, positions: TRAIL.positions.slice(-1) };
    await open(one, 'ja');
    expect((await screen.findByTestId('trail-positions', undefined, SLOW)).textContent).toMatch(
      /^スマートフォンの位置 1件（[^〜]+）$/,
    );
  });

  it('says one position with its one time, in English', async () => {
    await open({ ...TRAIL, positions: TRAIL.positions.slice(-1) }, 'en');
    expect((await screen.findByTestId('trail-positions', undefined, SLOW)).textContent).toMatch(
      /^1 phone position at [^-]+\.$/,
    );
  });

  it('draws the positions on a map and lists the gateway stays, in Japanese', async () => {
    await open(TRAIL, 'ja');
    expect(await screen.findByRole('heading', { name: '直近12時間の軌跡' }, SLOW)).toBeTruthy();
    expect((await screen.findByTestId('trail-positions', undefined, SLOW)).textContent).toMatch(
      /^スマートフォンの位置 2件（.+ 〜 .+）$/,
    );
    const map = await screen.findByTestId('trail-map', undefined, SLOW);
    expect(map.getAttribute('aria-label')).toBe(mapJa.trail.mapLabel);
    expect(map.querySelector('path.leaflet-interactive, path')).toBeTruthy();
    const [stay] = within(screen.getByTestId('trail-stays')).getAllByRole('listitem');
    expect(stay!.textContent).toMatch(/^本館 · 正門 .+ 〜 .+$/);
  });

  it('says so when the organisation withholds places, in English', async () => {
    await open({ ...TRAIL, withheld: true, positions: [], stays: [] }, 'en');
    expect((await screen.findByTestId('trail-withheld', undefined, SLOW)).textContent).toBe(
      mapEn.trail.withheld,
    );
    expect(screen.queryByTestId('trail-map')).toBeNull();
  });
});
