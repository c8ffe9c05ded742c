import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { auditView, settle } from '../support/a11y.js';
import { signInByApi } from '../support/api.js';
import { signIn } from '../support/session.js';
import { greyPng } from '../support/png.js';
import { test } from '../support/test.js';
import { bracelet, DEMO_CLIENT, wearerUid } from './live-gateway.js';

/**
 * Issue 17, item 4: where is everyone. The spec's own site with a plan and two gateways of its own
 * (the dining room left, room 203 right); wearer 13 (no other spec uses it) is heard by both, best
 * by room 203, then presses SOS through the dining room's gateway. /map shows her at room 203 on the
 * plan (a pulsing marker whose count opens her name) and the list names the same place with the
 * open SOS; ja and en at 1,280 and 360 px, axe clean, no sideways scrolling.
 */
const WEARER = 13;
const NAME = '佐々木 美咲';
/** Outdoors: wearer 19 (no other spec uses it) is heard by a gateway that sends its position. */
const WALKER = 19;
const WALKER_NAME = '斎藤 康弘';
const POSITION = { latitude: 35.6812, longitude: 139.7671, accuracy: 15 };
/** The default tile server (MAP_TILE_URL); the e2e has no internet, so the test serves the tiles. */
const TILES = 'https://tile.openstreetmap.org/**';

/** A floor plan: a darker wall band every 80 rows and a wall down the middle. */
const planPng = (width = 480, height = 240): Buffer =>
  greyPng(width, height, (x, y) => (x === width / 2 || y % 80 < 3 ? 0x50 : 0xf2));

interface Gateway {
  id: string;
  auth: string;
}

async function setUp(request: APIRequestContext, suffix: string) {
  const { accessToken } = await signInByApi(request, 'org-owner@example.com');
  const headers = { authorization: `Bearer ${accessToken}` };
  const register = async (
    name: string,
    tag: string,
    x: number,
    siteId: string,
  ): Promise<Gateway> => {
    const res = await request.post('/v2/gateway', {
      headers,
      data: {
        clientId: DEMO_CLIENT,
        type: 'STATIONARY',
        serialNumber: `E2E-MAP-${tag}-${suffix}`.toUpperCase(),
        name: `${name} ${suffix}`,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    const { connection } = (await res.json()) as {
      connection: { gatewayId: string; credential: string };
    };
    const placed = await request.put(`/v2/gateway/${connection.gatewayId}/place`, {
      headers,
      data: { plan: { siteId, x, y: 0.5 }, position: null },
    });
    expect(placed.status(), await placed.text()).toBe(200);
    return {
      id: connection.gatewayId,
      auth: `Gateway ${connection.gatewayId}:${connection.credential}`,
    };
  };
  const site = await request.post(`/v2/organization/${DEMO_CLIENT}/sites`, {
    headers,
    data: { name: `本館 ${suffix}` },
  });
  expect(site.status(), await site.text()).toBe(201);
  const siteId = ((await site.json()) as { id: string }).id;
  const plan = await request.put(`/v2/site/${siteId}/plan`, {
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    data: planPng(),
  });
  expect(plan.status(), await plan.text()).toBe(200);
  const dining = await register('食堂', 'DINING', 0.25, siteId);
  const room = await register('203号室', 'ROOM', 0.75, siteId);
  return { dining, room };
}

async function send(request: APIRequestContext, gateway: Gateway, batch: object) {
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: gateway.auth },
    data: batch,
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Tiles from the test itself: a small grey PNG for every tile, or a refusal (no tile server). */
async function serveTiles(page: Page, ok: boolean) {
  await page.unroute(TILES);
  await page.route(TILES, (route) =>
    ok
      ? route.fulfill({ status: 200, contentType: 'image/png', body: planPng(256, 256) })
      : route.abort(),
  );
}

async function openMap(page: Page, siteName: string, lng: 'ja' | 'en') {
  await page.goto(`/map?lng=${lng}`);
  await settle(page);
  // Other specs make sites with plans too: choose this one when there is a choice.
  await expect(page.getByTestId('map-plan')).toBeVisible();
  const choice = page.getByRole('button', { name: siteName, exact: true });
  if ((await choice.count()) > 0) await choice.click();
  await expect(page.getByTestId('map-plan').locator('img')).toBeVisible();
}

test('/map shows the SOS wearer at the gateway that hears her best, and the list names the same place; ja and en at 1280 and 360 px, axe clean', async ({
  page,
  request,
}) => {
  test.slow(); // four views, each with axe
  const suffix = Date.now().toString(36);
  const siteName = `本館 ${suffix}`;
  const { dining, room } = await setUp(request, suffix);
  const now = Date.now();
  for (const m of [3, 2, 1, 0]) {
    const at = new Date(now - m * 60_000).toISOString();
    await send(request, dining, {
      readings: [{ serialNumber: bracelet(WEARER), at, heartRate: 80, rssi: -82 }],
    });
    await send(request, room, {
      readings: [{ serialNumber: bracelet(WEARER), at, heartRate: 80, rssi: -51 }],
    });
  }
  await send(request, dining, {
    events: [{ serialNumber: bracelet(WEARER), type: 'SOS', at: new Date().toISOString() }],
  });
  const at = new Date().toISOString();
  await send(request, dining, {
    readings: [
      { serialNumber: bracelet(WALKER), at, heartRate: 78, location: { ...POSITION, at } },
    ],
  });

  await signIn(page, request, 'org-owner@example.com');
  await serveTiles(page, true);
  await openMap(page, siteName, 'ja');
  const marker = page.locator(`[data-testid="map-marker"][data-gateway="${room.id}"]`);
  await expect(marker).toHaveAccessibleName(`203号室 ${suffix} 1人（うち1人がSOS・緊急）`);
  await expect(
    page.locator(`[data-testid="map-marker"][data-gateway="${dining.id}"]`),
  ).toHaveAccessibleName(`食堂 ${suffix} 0人`);
  // Drawn where room 203 is: three quarters across the plan.
  const [planBox, markerBox] = [
    await page.getByTestId('map-plan').boundingBox(),
    await marker.boundingBox(),
  ];
  expect((markerBox!.x + markerBox!.width / 2 - planBox!.x) / planBox!.width).toBeCloseTo(0.75, 1);
  // The count opens the names, by keyboard.
  await marker.focus();
  await page.keyboard.press('Enter');
  await expect(marker).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('region', { name: `203号室 ${suffix}にいる人` });
  await expect(panel).toContainText(NAME);
  await expect(panel).toContainText('SOS発信');
  // The list says the same: her card, with the place and the open SOS.
  const card = page.getByTestId('map-person').filter({ hasText: NAME });
  await expect(card.getByTestId('map-person-place')).toHaveText(`${siteName} · 203号室 ${suffix}`);
  await expect(card.getByTestId('map-person-alert')).toContainText('SOS発信');

  // Outdoors: Leaflet with the tile server's tiles, the walker's marker named and focusable.
  const leaflet = page.getByTestId('map-leaflet');
  await expect(leaflet).toBeVisible();
  await expect(leaflet.locator('img.leaflet-tile-loaded').first()).toBeVisible();
  const pin = leaflet.getByRole('button', {
    name: `${WALKER_NAME}: 位置 35.68120, 139.76710 (±15 m)`,
  });
  await expect(pin).toBeVisible();
  await pin.focus();
  // A live refetch between the focus and the key (her phone reports again): the marker keeps its
  // element and the focus, so Enter still opens her.
  const refetched = page.waitForResponse(
    (r) => /\/v2\/organization\/[^/]+\/map$/.test(new URL(r.url()).pathname) && r.ok(),
  );
  const again = new Date().toISOString();
  await send(request, dining, {
    readings: [
      {
        serialNumber: bracelet(WALKER),
        at: again,
        heartRate: 79,
        location: { ...POSITION, at: again },
      },
    ],
  });
  await refetched;
  await expect(pin).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('map-outdoor-open')).toContainText(WALKER_NAME);
  await expect(page.getByTestId('map-attribution')).toHaveText('© OpenStreetMap contributors');
  // Without the tile server, the same person on the plain grid, with the notice.
  await serveTiles(page, false);
  await openMap(page, siteName, 'ja');
  await expect(page.getByTestId('map-grid-notice')).toBeVisible();
  await expect(page.getByTestId('map-leaflet')).toHaveCount(0);
  await expect(
    page.getByTestId('map-outdoor').getByRole('button', { name: new RegExp(`^${WALKER_NAME}: `) }),
  ).toBeVisible();
  await serveTiles(page, true);

  const failures: string[] = [];
  for (const lng of ['ja', 'en'] as const) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await openMap(page, siteName, lng);
      const view = page.getByTestId('map-person').filter({ hasText: NAME });
      await expect(view.getByTestId('map-person-place')).toHaveText(
        `${siteName} · 203号室 ${suffix}`,
      );
      await expect(view.getByTestId('map-person-alert')).toContainText(
        lng === 'ja' ? 'SOS発信' : 'SOS call',
      );
      await expect(
        page.locator(`[data-testid="map-marker"][data-gateway="${room.id}"]`),
      ).toHaveAccessibleName(
        lng === 'ja'
          ? `203号室 ${suffix} 1人（うち1人がSOS・緊急）`
          : `203号室 ${suffix} 1 person, in an SOS or emergency`,
      );
      await expect(
        page
          .getByTestId('map-leaflet')
          .getByRole('button', { name: new RegExp(`^${WALKER_NAME}: `) }),
      ).toBeVisible();
      await expect(
        page.getByTestId('map-leaflet').locator('img.leaflet-tile-loaded').first(),
      ).toBeVisible();
      failures.push(...(await auditView(page, `${lng} ${width}`)));
      await page.screenshot({ path: `test-results/map-${lng}-${width}.png`, fullPage: true });
    }
  }
  // The walker's page: her trail (two phone positions on the map, the gateway stay in the list),
  // in ja and en at 1,280 and 360 px.
  for (const lng of ['ja', 'en'] as const) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/devices/${DEMO_CLIENT}/${wearerUid(WALKER)}?lng=${lng}`);
      await settle(page);
      const trail = page.getByTestId('wearer-trail');
      await expect(trail.getByTestId('trail-positions')).toContainText(
        lng === 'ja' ? 'スマートフォンの位置 2件' : '2 phone positions from',
      );
      await expect(trail.getByTestId('trail-map')).toBeVisible();
      await expect(trail.getByTestId('trail-stays')).toContainText(`食堂 ${suffix}`);
      failures.push(...(await auditView(page, `trail ${lng} ${width}`)));
      await page.screenshot({ path: `test-results/trail-${lng}-${width}.png`, fullPage: true });
    }
  }
  expect(failures).toEqual([]);
});

test('the demo has a site plan with its site office and the people heard there, in ja and en at 1280 and 360 px (issue 36)', async ({
  page,
}) => {
  const failures: string[] = [];
  for (const lng of ['ja', 'en'] as const) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/demo/map?lng=${lng}`);
      await settle(page);
      await expect(page.getByTestId('map-plan')).toBeVisible();
      // Other specs add sites with plans to the demo organisation: its own is 第一現場.
      const choice = page.getByRole('button', { name: '第一現場', exact: true });
      if ((await choice.count()) > 0) await choice.click();
      await expect(page.getByTestId('map-plan').locator('img')).toBeVisible();
      await expect(
        page.locator('[data-testid="map-marker"][data-gateway="demo-gateway-1"]'),
      ).toHaveAccessibleName(lng === 'ja' ? /^詰所 \d+人/ : /^詰所 \d+ (person|people)/);
      failures.push(...(await auditView(page, `demo map ${lng} ${width}`)));
      await page.screenshot({ path: `test-results/demo-map-${lng}-${width}.png`, fullPage: true });
    }
  }
  expect(failures).toEqual([]);
});
