import { fetchUser, signInByApi, type UserDevice } from '../support/api.js';
import { ROLE_CASES } from '../support/roles.js';
import { readStorage, STORAGE_KEYS, urlWithPath, waitForPage } from '../support/session.js';
import { logoHref, menuHrefs, signInWithForm } from '../support/shell.js';
import { expect, test } from '../support/test.js';

/**
 * Each role signs in through the real form and must land where the spec says, see exactly its menu, and have the
 * logo point to its home. The table is support/roles.ts.
 */
for (const c of ROLE_CASES) {
  test(`${c.role} signs in with the form, lands on ${c.landing}, menu ${c.menu.join(' ')}, logo ${c.logo}`, async ({
    page,
    request,
  }) => {
    await signInWithForm(page, c.email);
    await expect(page).toHaveURL(urlWithPath(c.landing));
    await waitForPage(page);

    if (c.role === 'PERSONAL') {
      // A family member chooses one of the linked wearers on /select-device; after that the record is home.
      const tokens = await signInByApi(request, c.email);
      const { devices } = await fetchUser(request, tokens.accessToken);
      expect(devices.length, 'the demo PERSONAL user has two linked wearers').toBe(2);
      for (const d of devices)
        // The device choices (a family banner's close button names the wearer too).
        await expect(page.getByTestId('device-option').filter({ hasText: d.name })).toBeVisible();
      const chosen = devices[1]!;
      await page.getByTestId('device-option').filter({ hasText: chosen.name }).click();
      await expect(page).toHaveURL(urlWithPath('/user/record'));
      await waitForPage(page);
      const stored = JSON.parse(
        (await readStorage(page))[STORAGE_KEYS.selectedDevice] ?? 'null',
      ) as UserDevice | null;
      expect(stored?.deviceId).toBe(chosen.deviceId);
      // Chosen once, it is remembered: the guard no longer sends the user to /select-device.
      await page.goto('/user/info');
      await expect(page).toHaveURL(urlWithPath('/user/info'));
      await waitForPage(page);
    }

    // Polled: the setup checklist's entry joins once the server has said the setup is not done.
    await expect.poll(() => menuHrefs(page)).toEqual(c.menu);
    expect(await logoHref(page)).toBe(c.logo);

    const tokens = await signInByApi(request, c.email);
    const user = await fetchUser(request, tokens.accessToken);
    expect(user.role).toBe(c.role);
    await expect(page.getByTestId('user-menu')).toContainText(user.name);
  });
}

test('a wrong password keeps the user on /login with a message and no session', async ({
  page,
}) => {
  await signInWithForm(page, 'org-owner@example.com', 'not-the-password');
  await expect(
    page.getByRole('alert').or(page.locator('[data-sonner-toast]')).first(),
  ).toBeVisible();
  await expect(page).toHaveURL(urlWithPath('/login'));
  // Nothing but the language choice may be stored by a failed attempt.
  const stored = Object.keys(await readStorage(page)).filter(
    (key) => key !== STORAGE_KEYS.language,
  );
  expect(stored).toEqual([]);
});
