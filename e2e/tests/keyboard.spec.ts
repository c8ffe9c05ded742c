import { roleCase } from '../support/roles.js';
import { signIn, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';
import { pressSos } from './live-gateway.js';

/*
 * The main tasks without a mouse: only Tab, Shift+Tab, arrows, Space, Enter and typing. Each step checks where the
 * keyboard focus lands and what the tab is called, as a screen-reader user would hear it.
 * Wearer 2's SOS belongs to this file.
 */

type Target = ReturnType<Page['locator']>;

/**
 * Presses Tab (or Shift+Tab, `back`) until `target` has the focus (as a keyboard user would), failing after `max`
 * presses.
 */
async function tabTo(page: Page, target: Target, max = 150, back = false): Promise<void> {
  const key = back ? 'Shift+Tab' : 'Tab';
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${target.toString()}`);
}

const focusedTestId = (page: Page) =>
  page.evaluate(
    () => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName,
  );

async function expectHeadingFocusedAndTitled(page: Page): Promise<string> {
  const heading = page.getByTestId('page-heading');
  await expect(heading).toBeFocused();
  const text = ((await heading.textContent()) ?? '').trim();
  await expect(page).toHaveTitle(
    new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| `),
  );
  return text;
}

test.describe('keyboard only, 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('staff: sign in, open the menu, filter and confirm an alert, log out', async ({
    page,
    request,
  }) => {
    await pressSos(request, 2);
    await page.goto('/login');
    await tabTo(page, page.locator('input[type="email"]'));
    await page.keyboard.type(roleCase('ORGANIZATION_OWNER').email);
    await tabTo(page, page.locator('input[type="password"]'));
    await page.keyboard.type('demo-pass-2026');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(urlWithPath('/devices'));
    await waitForPage(page);
    const devicesTitle = await page.title();

    // The menu drawer: opened and followed with the keyboard; the new page's heading takes the focus.
    await tabTo(page, page.getByTestId('menu-button'));
    await page.keyboard.press('Enter');
    const history = page.getByTestId('main-menu').locator('a[href$="/alert-histories"]');
    await tabTo(page, history);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(urlWithPath('/alert-histories'));
    await waitForPage(page);
    await expectHeadingFocusedAndTitled(page);
    expect(await page.title()).not.toBe(devicesTitle);

    // Filter by type: the select takes typed letters.
    await tabTo(page, page.getByTestId('filter-type'));
    await page.keyboard.type('SOS');
    await expect(page.getByTestId('filter-type')).toHaveValue('SOS_CALL');

    // Confirm wearer 2's SOS; focus lands on the row's new status and the outcome is announced once.
    const open = page
      .getByTestId('alert-row')
      .filter({ hasText: 'SOS' })
      .filter({ has: page.getByTestId('alert-confirm') });
    await expect(open.first()).toBeVisible();
    const alertId = await open.first().getAttribute('data-alert-id');
    const row = page.locator(`[data-alert-id="${alertId}"]`);
    await tabTo(page, row.getByTestId('alert-confirm'));
    await page.keyboard.press('Enter');
    // The confirm dialog (reason and note are optional): its button by keyboard too.
    await expect(page.getByTestId('confirm-dialog')).toBeVisible();
    await tabTo(page, page.getByTestId('confirm-submit'));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('confirm-dialog')).toBeHidden();
    const status = row.getByTestId('alert-status');
    await expect(status).toContainText('確認済み');
    await expect(status).toBeFocused();
    const toast = page.locator('[data-sonner-toast]');
    await expect(toast).toHaveCount(1);

    // Log out through the user menu, back up in the header (Shift+Tab, as a keyboard user would: forwards it lies past
    // every alert row below, more than 150 stops once the run's other stories have raised their alerts; CI, 11:05).
    await tabTo(page, page.getByTestId('user-menu'), 150, true);
    await page.keyboard.press('Enter');
    const logout = page.getByTestId('logout');
    await expect(logout).toBeVisible();
    for (
      let i = 0;
      i < 5 && !(await logout.evaluate((el) => el === document.activeElement));
      i += 1
    ) {
      await page.keyboard.press('ArrowDown');
    }
    await expect(logout).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(urlWithPath('/login'));
    expect(await focusedTestId(page)).not.toBe('logout');
  });

  test('personal: change and save the alert settings', async ({ page, request }) => {
    await signIn(page, request, roleCase('PERSONAL_SELF').email);
    await page.goto('/user/settings/alert');
    await waitForPage(page);
    await expect(page).toHaveTitle(/ \| /);

    const lower = page.getByTestId('input-heartRateLower');
    await tabTo(page, lower);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('30');
    const save = page.getByTestId('save-settings');
    await tabTo(page, save);
    await page.keyboard.press('Enter');
    // Out of the domain's bounds: the field says so and takes the focus back.
    await expect(lower).toBeFocused();
    await expect(lower).toHaveAttribute('aria-invalid', 'true');

    await page.keyboard.press('Control+A');
    await page.keyboard.type('45');
    await tabTo(page, save);
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-sonner-toast][data-type="success"]')).toHaveCount(1);
    await expect(save).toBeFocused();
    await expect(lower).toHaveValue('45');
  });
});
