import { readStorage, signIn, STORAGE_KEYS, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

for (const [email, home] of [
  ['org-owner@example.com', '/devices'],
  ['personal@example.com', '/user/record'],
] as const) {
  test(`logout as ${email}: clears localStorage, lands on /login, guarded pages go to /login`, async ({
    page,
    request,
  }) => {
    await signIn(page, request, email, { selectDevice: email.startsWith('personal') });
    await page.goto(home);
    await waitForPage(page);
    expect(Object.keys(await readStorage(page)).length).toBeGreaterThan(0);

    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(urlWithPath('/login'));
    await waitForPage(page);

    // The language choice may be written again by i18n for the page still open; nothing else may survive.
    const left = Object.keys(await readStorage(page)).filter(
      (key) => key !== STORAGE_KEYS.language,
    );
    expect(left).toEqual([]);

    await page.goto(home);
    await expect(page).toHaveURL(urlWithPath('/login'));
    await page.goto('/settings/admins');
    await expect(page).toHaveURL(urlWithPath('/login'));
  });
}

/*
 * Spec: ALL_GENERAL and ALL_OWNER are logged out automatically once login time + refresh-token lifetime has passed.
 * The test signs in for real and only moves the stored login time back past that lifetime.
 */
const LONG_AGO = Date.UTC(2020, 0, 1);

for (const [email, expired] of [
  ['all-general@example.com', true],
  ['all-owner@example.com', true],
  ['org-owner@example.com', false],
] as const) {
  test(`session lifetime: ${email} signed in long ago is ${expired ? 'logged out' : 'kept signed in'}`, async ({
    page,
    request,
  }) => {
    await signIn(page, request, email, { loginTime: LONG_AGO });
    await page.goto('/devices');
    if (expired) {
      await expect(page).toHaveURL(urlWithPath('/login'));
      await waitForPage(page);
      const left = Object.keys(await readStorage(page)).filter(
        (key) => key !== STORAGE_KEYS.language,
      );
      expect(left).toEqual([]);
    } else {
      await waitForPage(page);
      await expect(page.getByTestId('main-menu')).toBeVisible();
      await expect(page).toHaveURL(urlWithPath('/devices'));
    }
  });
}
