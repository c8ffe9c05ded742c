import { readStorage, signIn, STORAGE_KEYS, waitForPage } from '../support/session.js';
import { chooseLanguage, JAPANESE_TEXT } from '../support/shell.js';
import { expect, test, type Page } from '../support/test.js';

const heading = (page: Page) => page.getByTestId('page-heading');

async function expectLanguage(page: Page, lng: 'ja' | 'en'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', lng);
  if (lng === 'ja') await expect(heading(page)).toHaveText(JAPANESE_TEXT);
  else await expect(heading(page)).not.toHaveText(JAPANESE_TEXT);
}

test.describe('language', () => {
  test('Japanese by default, on the login page too', async ({ page }) => {
    await page.goto('/login');
    await waitForPage(page);
    await expectLanguage(page, 'ja');
  });

  test.describe('with an English browser', () => {
    test.use({ locale: 'en-US' });
    test('Japanese is still the default; English is opt-in', async ({ page }) => {
      await page.goto('/login');
      await waitForPage(page);
      await expectLanguage(page, 'ja');
    });
  });

  test('?lng=en and ?lng=ja switch the language, and the choice survives a reload', async ({
    page,
    request,
  }) => {
    await signIn(page, request, 'org-owner@example.com');
    await page.goto('/devices?lng=en');
    await waitForPage(page);
    await expectLanguage(page, 'en');
    const english = await heading(page).textContent();
    expect((await readStorage(page))[STORAGE_KEYS.language]).toBe('en');

    await page.goto('/devices');
    await waitForPage(page);
    await expectLanguage(page, 'en');

    await page.goto('/devices?lng=ja');
    await waitForPage(page);
    await expectLanguage(page, 'ja');
    await expect(heading(page)).not.toHaveText(english ?? '');
    await page.reload();
    await waitForPage(page);
    await expectLanguage(page, 'ja');
    expect((await readStorage(page))[STORAGE_KEYS.language]).toBe('ja');
  });

  test('the header switch changes ja -> en -> ja without a reload, and is remembered', async ({
    page,
    request,
  }) => {
    await signIn(page, request, 'personal-self@example.com');
    await page.goto('/user/record');
    await waitForPage(page);
    await expectLanguage(page, 'ja');

    await chooseLanguage(page, 'en');
    await expectLanguage(page, 'en');
    // The menu is translated too, not only the heading.
    await expect(page.getByTestId('main-menu')).not.toHaveText(JAPANESE_TEXT);
    await page.reload();
    await waitForPage(page);
    await expectLanguage(page, 'en');

    await chooseLanguage(page, 'ja');
    await expectLanguage(page, 'ja');
    await expect(page.getByTestId('main-menu')).toHaveText(JAPANESE_TEXT);
    await page.reload();
    await waitForPage(page);
    await expectLanguage(page, 'ja');
  });
});
