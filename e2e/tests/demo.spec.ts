import { fetchDemoWearerNames } from '../support/api.js';
import { readStorage, STORAGE_KEYS, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

/** Demo mode: no sign-in, a fake organisation owner, data through /demo-api, every internal link under /demo. */
test('/demo opens without sign-in and shows the demo wearers', async ({ page, request }) => {
  const names = await fetchDemoWearerNames(request);
  expect(names.length, 'the demo API should list wearers').toBeGreaterThan(0);

  await page.goto('/demo');
  await expect(page).toHaveURL(/\/demo(\/|$)/);
  await waitForPage(page);
  expect(new URL(page.url()).pathname.startsWith('/demo')).toBe(true);

  await page.goto('/demo/devices');
  await waitForPage(page);
  await expect(page).toHaveURL(urlWithPath('/demo/devices'));
  for (const name of names.slice(0, 3)) await expect(page.getByText(name).first()).toBeVisible();

  await expect(page.getByTestId('terms-modal')).toHaveCount(0);
  // No session was created to get here.
  const stored = Object.keys(await readStorage(page)).filter(
    (key) => key === STORAGE_KEYS.accessToken || key === STORAGE_KEYS.refreshToken,
  );
  expect(stored).toEqual([]);
});

test('demo: every internal link is prefixed with /demo and the menu keeps the user in demo mode', async ({
  page,
}) => {
  await page.goto('/demo/devices');
  await waitForPage(page);

  const logo = await page
    .getByTestId('logo-link')
    .evaluate((a) => new URL((a as HTMLAnchorElement).href).pathname);
  expect(logo).toBe('/demo/devices');
  const menu = await page
    .getByTestId('main-menu')
    .locator('a')
    .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  expect(menu).toEqual([
    '/demo/devices',
    '/demo/members',
    '/demo/alert-histories',
    '/demo/map',
    '/demo/settings/admins',
  ]);

  // Every same-origin link that stays in the app (new-tab documents such as the terms of service excepted).
  const internal = await page.locator('a[href]').evaluateAll((links) =>
    links
      .map((a) => a as HTMLAnchorElement)
      .filter((a) => a.origin === location.origin && a.target !== '_blank')
      .map((a) => a.pathname),
  );
  expect(internal.length).toBeGreaterThan(0);
  expect(internal.filter((path) => !path.startsWith('/demo'))).toEqual([]);

  await page.getByTestId('main-menu').locator('a[href$="/alert-histories"]').click();
  await expect(page).toHaveURL(urlWithPath('/demo/alert-histories'));
  await waitForPage(page);
  await expect(page.getByTestId('terms-modal')).toHaveCount(0);

  // Where everyone is, read-only: the list of the demo wearers, and no privacy switch to change.
  await page.getByTestId('main-menu').locator('a[href$="/map"]').click();
  await expect(page).toHaveURL(urlWithPath('/demo/map'));
  await waitForPage(page);
  await expect(page.getByTestId('map-person').first()).toBeVisible();
  await expect(page.getByTestId('map-privacy')).toHaveCount(0);
});
