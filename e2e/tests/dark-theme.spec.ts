import { join } from 'node:path';
import { auditView, setWidth, settle, useLanguage, WIDTHS, type Lng } from '../support/a11y.js';
import { roleCase } from '../support/roles.js';
import { signIn } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';
import { DEMO_CLIENT, pressSos, sendReadings, wearerUid } from './live-gateway.js';

/*
 * Night use (issue 36): the dark theme follows the system's prefers-color-scheme, a choice of this browser
 * (System / Light / Dark) overrides it and survives a reload, and every main page passes axe in it (contrast
 * included) in both languages at 1,280 and 360 px (a person's records, tab by tab: personal-records.spec). Screenshots land in test-results/dark-*.png.
 */
const WEARER_NUMBER = 12;
const WEARER = `/devices/${DEMO_CLIENT}/${wearerUid(WEARER_NUMBER)}`;
const STAFF_PAGES = [
  ['/devices', WEARER, '/alert-histories', '/groups'],
  ['/gateways', '/user/info', '/groups/demo-group-1/alert-notice-settings', '/settings/admins'],
] as const;
const LANGUAGES: readonly Lng[] = ['ja', 'en'];
const OWNER = roleCase('ORGANIZATION_OWNER').email;

/** The screenshot's file: e2e/test-results/dark-<what>.png. */
const shotPath = (name: string) =>
  join(test.info().project.outputDir, `dark-${name.replace(/[^a-z0-9]+/gi, '-')}.png`);

/** sRGB of an element's computed background, through a canvas (Chromium reports oklch as it is written). */
async function backgroundRgb(page: Page, selector: string): Promise<[number, number, number]> {
  return page.evaluate((sel) => {
    const element = document.querySelector(sel);
    if (element === null) throw new Error(`no ${sel}`);
    const context = document.createElement('canvas').getContext('2d')!;
    context.fillStyle = getComputedStyle(element).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
    return [r, g, b] as [number, number, number];
  }, selector);
}

const isDark = ([r, g, b]: [number, number, number]) => r + g + b < 3 * 80;

async function expectPageTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await expect.poll(async () => isDark(await backgroundRgb(page, 'html'))).toBe(theme === 'dark');
}

/** The open SOS's band, at the top of the first page opened, stays red in the dark. */
async function expectRedAlertBand(page: Page): Promise<void> {
  await expect(page.getByTestId('alert-popup')).toBeVisible();
  const [r, g, b] = await backgroundRgb(page, '[data-testid="alert-popup"]');
  expect(r, `alert band rgb(${r} ${g} ${b})`).toBeGreaterThan(150);
  expect(g + b, `alert band rgb(${r} ${g} ${b})`).toBeLessThan(120);
}

test.beforeAll(async ({ request }) => {
  // Badges, values and an open SOS (the red band) on the pages checked.
  await sendReadings(request, WEARER_NUMBER, { heartRate: 98, skinTemperature: 35.2, battery: 9 });
  await pressSos(request, WEARER_NUMBER);
});

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
});

for (const lng of LANGUAGES) {
  STAFF_PAGES.forEach((chunk, part) => {
    test(`dark theme: axe as an organisation owner in ${lng}, part ${part + 1}`, async ({
      page,
      request,
    }) => {
      test.setTimeout(80_000);
      await signIn(page, request, OWNER);
      await useLanguage(page, lng);
      const failures: string[] = [];
      for (const path of chunk) {
        await setWidth(page, WIDTHS[0]);
        await page.goto(path);
        if (path === chunk[0]) await expectRedAlertBand(page);
        for (const width of WIDTHS) {
          await setWidth(page, width);
          await settle(page);
          await expectPageTheme(page, 'dark');
          failures.push(...(await auditView(page, `${path} ${lng} ${width}px dark`)));
          if (lng === 'ja' || width === WIDTHS[0])
            await page.screenshot({ path: shotPath(`${lng}-${width}-${path}`) });
        }
      }
      expect(failures, failures.join('\n')).toEqual([]);
    });
  });

  test(`dark theme: axe signed out and on the phone gateway in ${lng}`, async ({ page }) => {
    await useLanguage(page, lng);
    const failures: string[] = [];
    for (const width of WIDTHS) {
      await setWidth(page, width);
      await page.goto('/login');
      await expect(page.getByTestId('language-switch')).toHaveValue(lng);
      await expectPageTheme(page, 'dark');
      failures.push(...(await auditView(page, `/login ${lng} ${width}px dark`)));
      await page.screenshot({ path: shotPath(`${lng}-${width}-login`) });
    }
    await page.goto('/phone/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (lng === 'en') {
      await page.getByRole('button', { name: 'English' }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    }
    for (const width of WIDTHS) {
      await setWidth(page, width);
      await expectPageTheme(page, 'dark');
      failures.push(...(await auditView(page, `/phone ${lng} ${width}px dark`)));
      await page.screenshot({ path: shotPath(`${lng}-${width}-phone`) });
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  test(`dark theme: axe on the night round in ${lng}`, async ({ page, request }) => {
    test.setTimeout(80_000);
    const failures: string[] = [];
    // The round sheet, as the night nurse of the care home reads it.
    await signIn(page, request, 'sakura-owner@example.com');
    await useLanguage(page, lng);
    await page.goto('/groups/sakura-group-1/round');
    await expect(page.getByTestId('page-heading')).toBeVisible();
    for (const width of WIDTHS) {
      await setWidth(page, width);
      await settle(page);
      await expectPageTheme(page, 'dark');
      failures.push(...(await auditView(page, `round ${lng} ${width}px dark`)));
      await page.screenshot({ path: shotPath(`${lng}-${width}-round`) });
    }

    expect(failures, failures.join('\n')).toEqual([]);
  });
}

test('the theme chosen here wins over the system one, survives a reload, ends with a logout, and never prints', async ({
  page,
  request,
}) => {
  await signIn(page, request, OWNER);
  await useLanguage(page, 'ja');
  await page.goto('/devices');
  await settle(page);
  await expectPageTheme(page, 'dark');

  // The user menu, beside the language switch, holds the choice; axe reads it open, in the dark.
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('group', { name: '画面の配色' })).toBeVisible();
  expect(await auditView(page, 'user menu open dark')).toEqual([]);
  await page.screenshot({ path: shotPath('user-menu') });
  await expect(page.getByRole('menuitemradio', { name: 'システムに合わせる' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await page.getByRole('menuitemradio', { name: 'ライト' }).click();
  await expectPageTheme(page, 'light');
  await page.keyboard.press('Escape');
  await page.reload();
  // Set before the app's script has run (public/theme.js): no dark flash before the light page.
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await settle(page);
  await expectPageTheme(page, 'light');

  // Under a light system, Dark chosen on the registration-info page, by keyboard.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/user/info');
  await settle(page);
  await expectPageTheme(page, 'light');
  const select = page.getByRole('combobox', { name: '画面の配色' });
  await select.focus();
  await select.selectOption('dark');
  await expectPageTheme(page, 'dark');
  await page.reload();
  await settle(page);
  await expectPageTheme(page, 'dark');
  await expect(select).toHaveValue('dark');
  // Paper stays light whatever the screen shows.
  await page.emulateMedia({ media: 'print' });
  await expectPageTheme(page, 'light');
  await page.emulateMedia({ media: 'screen' });

  // A logout clears local storage entirely (the specification), the choice with it: the system's (light) again.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page.getByTestId('language-switch')).toBeVisible();
  await expectPageTheme(page, 'light');
  await page.reload();
  await expectPageTheme(page, 'light');
});
